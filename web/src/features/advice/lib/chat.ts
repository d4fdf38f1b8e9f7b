import type { AnswerEvent } from '../api/ask-question';

/** Why an answer failed: the model's error, its timeout, no model service, a stream cut short, a refused question. */
export type FailureKind = 'model' | 'timeout' | 'unreachable' | 'cut' | 'request';

export interface Turn {
  id: number;
  question: string;
  /** The answer so far, markdown. */
  answer: string;
  state: 'waiting' | 'streaming' | 'done' | 'failed' | 'stopped';
  source?: 'advisor' | 'model';
  model?: string;
  /** The server's message in the asker's language; empty for a cut stream (the page says it). */
  failure?: { kind: FailureKind; message: string };
}

export type ChatAction =
  | { type: 'ask'; id: number; question: string }
  | { type: 'event'; id: number; event: AnswerEvent }
  /** The stream ended. */
  | { type: 'ended'; id: number }
  /** The question was refused before its answer began. */
  | { type: 'refused'; id: number; message: string }
  | { type: 'stop'; id: number };

/** The server's error keys (advice.llm.*) as failure kinds. */
export function failureKind(key: string): FailureKind {
  switch (key) {
    case 'advice.llm.timeout':
      return 'timeout';
    case 'advice.llm.unreachable':
      return 'unreachable';
    default:
      return 'model';
  }
}

const open = (turn: Turn) => turn.state === 'waiting' || turn.state === 'streaming';

function update(turn: Turn, action: ChatAction): Turn {
  switch (action.type) {
    case 'event': {
      const event = action.event;
      if (!open(turn)) return turn;
      switch (event.type) {
        case 'meta':
          return { ...turn, source: event.source, model: event.model };
        case 'delta':
          return { ...turn, state: 'streaming', answer: turn.answer + event.text };
        case 'done':
          return { ...turn, state: 'done' };
        case 'error':
          return { ...turn, state: 'failed', failure: { kind: failureKind(event.key), message: event.message } };
      }
      return turn;
    }
    case 'ended':
      // Neither done nor an error: the connection broke off mid-answer.
      return open(turn) ? { ...turn, state: 'failed', failure: { kind: 'cut', message: '' } } : turn;
    case 'refused':
      return { ...turn, state: 'failed', failure: { kind: 'request', message: action.message } };
    case 'stop':
      return open(turn) ? { ...turn, state: 'stopped' } : turn;
    default:
      return turn;
  }
}

/** The conversation: questions in the order asked, each with its answer as it streams in. */
export function chatReducer(turns: Turn[], action: ChatAction): Turn[] {
  if (action.type === 'ask') return [...turns, { id: action.id, question: action.question, answer: '', state: 'waiting' }];
  return turns.map((turn) => (turn.id === action.id ? update(turn, action) : turn));
}

/** Whether an answer is still coming. */
export function isAnswering(turns: Turn[]): boolean {
  return turns.some(open);
}
