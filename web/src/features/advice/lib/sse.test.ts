import { describe, expect, it } from 'vitest';
import { EventStreamParser, readEvents, type ServerEvent } from './sse';

/** Feeds the stream to a parser in pieces cut at the given lengths, collecting every event. */
function parseInPieces(stream: string, cut: number): ServerEvent[] {
  const parser = new EventStreamParser();
  const out: ServerEvent[] = [];
  for (let at = 0; at < stream.length; at += cut) out.push(...parser.push(stream.slice(at, at + cut)));
  out.push(...parser.end());
  return out;
}

const STREAM =
  'event: meta\ndata: {"source":"model","model":"m"}\n\n' +
  ': a comment the server may send to keep the line open\n' +
  'event: delta\ndata: {"text":"Irrigate "}\n\n' +
  'event: delta\r\ndata: {"text":"**41 mm**\\n"}\r\n\r\n' +
  'data: first\ndata: second\nid: 7\nretry: 10\n\n' +
  'event: done\rdata: {}\r\r';

const EVENTS: ServerEvent[] = [
  { event: 'meta', data: '{"source":"model","model":"m"}' },
  { event: 'delta', data: '{"text":"Irrigate "}' },
  { event: 'delta', data: '{"text":"**41 mm**\\n"}' },
  { event: 'message', data: 'first\nsecond' },
  { event: 'done', data: '{}' },
];

describe('EventStreamParser', () => {
  it('reads events, comments and unknown fields aside, with LF, CRLF and CR line ends', () => {
    expect(parseInPieces(STREAM, STREAM.length)).toEqual(EVENTS);
  });

  it.each([1, 2, 3, 5, 7, 13])('gives the same events whatever pieces the stream arrives in (%i characters)', (cut) => {
    expect(parseInPieces(STREAM, cut)).toEqual(EVENTS);
  });

  it('holds an event until its blank line, and drops one the stream never closed', () => {
    const parser = new EventStreamParser();
    expect(parser.push('event: delta\ndata: {"text":"a"}\n')).toEqual([]);
    expect(parser.push('\nevent: delta\ndata: {"text":"cut off"}\n')).toEqual([{ event: 'delta', data: '{"text":"a"}' }]);
    expect(parser.end()).toEqual([]);
  });

  it('takes a field without a colon as empty, and only one space after the colon away', () => {
    const parser = new EventStreamParser();
    expect(parser.push('data\ndata:  two spaces\ndata:none\n\n')).toEqual([{ event: 'message', data: '\n two spaces\nnone' }]);
  });

  it('ignores a blank line with no data before it', () => {
    expect(new EventStreamParser().push('event: ping\n\n\n')).toEqual([]);
  });
});

describe('readEvents', () => {
  it('yields each event as soon as its bytes arrive, decoding characters cut between pieces', async () => {
    const bytes = new TextEncoder().encode('event: delta\ndata: {"text":"灌溉 30 mm"}\n\nevent: done\ndata: {}\n\n');
    const firstEnd = new TextEncoder().encode('event: delta\ndata: {"text":"灌溉 30 mm"}\n\n').length;
    // Cut inside 灌 (three bytes in UTF-8).
    const cut = bytes.indexOf(0xe7) + 1;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    controller.enqueue(bytes.slice(0, cut));
    controller.enqueue(bytes.slice(cut, firstEnd));
    const events = readEvents(body);
    // The first event, while the rest of the stream has not been sent.
    expect((await events.next()).value).toEqual({ event: 'delta', data: '{"text":"灌溉 30 mm"}' });
    controller.enqueue(bytes.slice(firstEnd));
    controller.close();
    expect((await events.next()).value).toEqual({ event: 'done', data: '{}' });
    expect((await events.next()).done).toBe(true);
  });
});
