/**
 * Server-Sent Events read from a fetch() body (EventSource cannot POST): the event stream format
 * of the HTML standard, as far as the farm question uses it — `event:` and `data:` fields, events
 * ended by a blank line, comments and unknown fields ignored, CR, LF and CRLF line ends alike.
 */

export interface ServerEvent {
  /** The event's type: "message" when the stream named none. */
  event: string;
  /** The data lines, joined by "\n". */
  data: string;
}

/** Collects events from text as it arrives, in pieces cut anywhere (mid-line, mid-CRLF). */
export class EventStreamParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private hasData = false;

  /** Adds a piece of the stream; returns the events it completed. */
  push(text: string): ServerEvent[] {
    this.buffer += text;
    const out: ServerEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      // A CR at the very end may be the first half of a CRLF still to come.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  /**
   * The stream ended: a last line held for a CRLF that never came is read; an event not closed by
   * a blank line is dropped, as the standard says.
   */
  end(): ServerEvent[] {
    const out = this.buffer.endsWith('\r') ? this.push('\n') : [];
    this.buffer = '';
    this.reset();
    return out;
  }

  private line(line: string): ServerEvent | null {
    if (line === '') {
      const done = this.hasData ? { event: this.event || 'message', data: this.data.join('\n') } : null;
      this.reset();
      return done;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') {
      this.data.push(value);
      this.hasData = true;
    }
    return null;
  }

  private reset() {
    this.event = '';
    this.data = [];
    this.hasData = false;
  }
}

/** Yields the events of a response body as they arrive; ends with the body. */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const parser = new EventStreamParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    // A reader that stops early (the page asked no more) closes the stream instead of leaving it open.
    await reader.cancel().catch(() => undefined);
  }
}
