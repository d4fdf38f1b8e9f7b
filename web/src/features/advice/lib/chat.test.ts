import { describe, expect, it } from 'vitest';
import { chatReducer, failureKind, isAnswering, type ChatAction, type Turn } from './chat';

const run = (actions: ChatAction[], from: Turn[] = []) => actions.reduce(chatReducer, from);

describe('chatReducer', () => {
  it('builds the answer from its pieces in order and ends it with done', () => {
    const turns = run([
      { type: 'ask', id: 1, question: 'Irrigate?' },
      { type: 'event', id: 1, event: { type: 'meta', source: 'model', model: 'field-model' } },
      { type: 'event', id: 1, event: { type: 'delta', text: 'Irrigate ' } },
    ]);
    expect(turns[0]).toMatchObject({ state: 'streaming', answer: 'Irrigate ', source: 'model', model: 'field-model' });
    expect(isAnswering(turns)).toBe(true);
    const done = run(
      [
        { type: 'event', id: 1, event: { type: 'delta', text: '**41 mm**' } },
        { type: 'event', id: 1, event: { type: 'done' } },
        { type: 'ended', id: 1 },
      ],
      turns,
    );
    expect(done[0]).toMatchObject({ state: 'done', answer: 'Irrigate **41 mm**' });
    expect(done[0].failure).toBeUndefined();
    expect(isAnswering(done)).toBe(false);
  });

  it('keeps what arrived before a model error and says which error it was', () => {
    const turns = run([
      { type: 'ask', id: 1, question: 'q' },
      { type: 'event', id: 1, event: { type: 'delta', text: 'Part' } },
      { type: 'event', id: 1, event: { type: 'error', key: 'advice.llm.timeout', message: 'The model service timed out' } },
      { type: 'ended', id: 1 },
    ]);
    expect(turns[0]).toMatchObject({ state: 'failed', answer: 'Part', failure: { kind: 'timeout', message: 'The model service timed out' } });
  });

  it('calls an answer cut off when its stream ends with neither done nor an error', () => {
    const turns = run([
      { type: 'ask', id: 1, question: 'q' },
      { type: 'event', id: 1, event: { type: 'delta', text: 'Half' } },
      { type: 'ended', id: 1 },
    ]);
    expect(turns[0]).toMatchObject({ state: 'failed', failure: { kind: 'cut', message: '' } });
  });

  it('stops only the answer under way, and nothing arrives into it afterwards', () => {
    const turns = run([
      { type: 'ask', id: 1, question: 'first' },
      { type: 'event', id: 1, event: { type: 'done' } },
      { type: 'ask', id: 2, question: 'second' },
      { type: 'stop', id: 2 },
      { type: 'event', id: 2, event: { type: 'delta', text: 'late' } },
      { type: 'stop', id: 1 },
    ]);
    expect(turns.map((t) => [t.question, t.state, t.answer])).toEqual([
      ['first', 'done', ''],
      ['second', 'stopped', ''],
    ]);
  });

  it('shows a refused question with the server message', () => {
    const turns = run([
      { type: 'ask', id: 1, question: ' ' },
      { type: 'refused', id: 1, message: 'Please enter a question' },
    ]);
    expect(turns[0]).toMatchObject({ state: 'failed', failure: { kind: 'request', message: 'Please enter a question' } });
  });
});

describe('failureKind', () => {
  it.each([
    ['advice.llm.timeout', 'timeout'],
    ['advice.llm.unreachable', 'unreachable'],
    ['advice.llm.error', 'model'],
    ['anything.else', 'model'],
  ])('%s is %s', (key, kind) => {
    expect(failureKind(key)).toBe(kind);
  });
});
