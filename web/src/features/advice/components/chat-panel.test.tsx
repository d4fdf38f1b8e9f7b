import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import ChatPanel from './chat-panel';

/** An answer stream the test writes to, event by event. */
function answerStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } }),
    send: (event: string, data: unknown) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
    close: () => controller.close(),
  };
}

function stubFetch(answer: () => Response) {
  const fetchMock = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => Promise.resolve(answer()));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function askAbout(question: string) {
  const user = userEvent.setup();
  renderWithProviders(<ChatPanel field={{ lead: 4, others: [13] }} deviceName="ZS006-02" />);
  await user.type(screen.getByTestId('advice-question'), `${question}{Enter}`);
  return user;
}

describe('ChatPanel', () => {
  beforeEach(async () => {
    await changeLanguage('en_US');
  });

  it('asks about the field and draws the answer while it streams in', async () => {
    const stream = answerStream();
    const fetchMock = stubFetch(() => stream.response);
    await askAbout('Should I irrigate?');

    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/apis/ai/farm/question');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ id: 4, field: [13], question: 'Should I irrigate?' });
    expect(init?.headers).toMatchObject({ lang: 'en_US', Accept: 'text/event-stream' });
    expect(screen.getByText('Should I irrigate?')).toBeInTheDocument();
    expect(await screen.findByText('Working out the answer…')).toBeInTheDocument();

    stream.send('meta', { source: 'model', model: 'field-model' });
    stream.send('delta', { text: 'Irrigate ' });
    // The first words are on the page while the answer is still coming.
    expect(await screen.findByText('Irrigate')).toBeInTheDocument();
    expect(screen.getByTestId('advice-answer')).toHaveAttribute('data-state', 'streaming');
    expect(screen.getByTestId('advice-stop')).toBeInTheDocument();
    expect(screen.queryByTestId('advice-answer-copy')).toBeNull();

    stream.send('delta', { text: '**41 mm** today:\n```json\n{"mm": 41}\n```\n' });
    stream.send('done', {});
    stream.close();
    await waitFor(() => expect(screen.getByTestId('advice-answer')).toHaveAttribute('data-state', 'done'));
    expect(screen.getByText('41 mm').tagName).toBe('STRONG');
    expect(screen.getByTestId('advice-code').querySelector('.hljs-attr')).toHaveTextContent('"mm"');
    expect(screen.getByText('Answered by field-model from the field\'s facts')).toBeInTheDocument();
    expect(screen.getByTestId('advice-answer-copy')).toBeInTheDocument();
    expect(screen.getByTestId('advice-ask')).toBeInTheDocument();
  });

  it('says plainly that the model timed out, with the server message', async () => {
    const stream = answerStream();
    stubFetch(() => stream.response);
    await askAbout('Frost tonight?');
    stream.send('meta', { source: 'model', model: 'm' });
    stream.send('error', { key: 'advice.llm.timeout', message: 'The model service timed out, please try again later' });
    stream.close();
    const alert = await screen.findByTestId('advice-chat-error');
    expect(alert).toHaveAttribute('data-kind', 'timeout');
    expect(alert).toHaveTextContent('The model took too long to answer');
    expect(alert).toHaveTextContent('The model service timed out, please try again later');
  });

  it('says a model error, and an answer cut off without an end', async () => {
    const failing = answerStream();
    stubFetch(() => failing.response);
    const user = await askAbout('Why?');
    failing.send('error', { key: 'advice.llm.error', message: 'The model service answered with an error: model overloaded' });
    failing.close();
    expect(await screen.findByTestId('advice-chat-error')).toHaveTextContent('The model answered with an error');

    const cut = answerStream();
    stubFetch(() => cut.response);
    await user.type(screen.getByTestId('advice-question'), 'Again?{Enter}');
    cut.send('delta', { text: 'Half an answ' });
    cut.close();
    await waitFor(() => expect(screen.getAllByTestId('advice-chat-error')).toHaveLength(2));
    const second = screen.getAllByTestId('advice-chat-error')[1];
    expect(second).toHaveAttribute('data-kind', 'cut');
    expect(second).toHaveTextContent('The connection ended before the answer was complete');
    expect(screen.getByText('Half an answ')).toBeInTheDocument();
  });

  it('shows why a question was refused before any answer', async () => {
    stubFetch(() => jsonResponse({ code: 1400, message: 'Please enter a question', data: null, error: { key: 'advice.question.required', field: 'question' } }, 400));
    await askAbout('?');
    const alert = await screen.findByTestId('advice-chat-error');
    expect(alert).toHaveAttribute('data-kind', 'request');
    expect(alert).toHaveTextContent('The question could not be asked');
    expect(alert).toHaveTextContent('Please enter a question');
  });

  it('stops an answer under way', async () => {
    const stream = answerStream();
    const fetchMock = stubFetch(() => stream.response);
    const user = await askAbout('Should I irrigate?');
    stream.send('delta', { text: 'Irrigate ' });
    await screen.findByText('Irrigate');
    await user.click(screen.getByTestId('advice-stop'));
    expect(screen.getByTestId('advice-answer')).toHaveAttribute('data-state', 'stopped');
    expect((fetchMock.mock.calls[0][1]?.signal as AbortSignal).aborted).toBe(true);
    expect(screen.getByText('Stopped.')).toBeInTheDocument();
  });
});
