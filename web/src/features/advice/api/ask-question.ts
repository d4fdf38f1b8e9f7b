import { openEventStream } from '@/lib/api-client';
import { readEvents } from '../lib/sse';
import type { FieldChoice } from './keys';

/** The longest question the server takes, characters (advice.MaxQuestion). */
export const MAX_QUESTION = 2000;

/** What the answer stream says, event by event (docs/advice.md, "Questions"). */
export type AnswerEvent =
  | { type: 'meta'; source: 'advisor' | 'model'; model?: string }
  | { type: 'delta'; text: string }
  | { type: 'done' }
  | { type: 'error'; key: string; message: string };

function parse(event: string, data: string): AnswerEvent | null {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(data) as Record<string, unknown>;
  } catch {
    return null;
  }
  const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
  switch (event) {
    case 'meta':
      return { type: 'meta', source: body.source === 'model' ? 'model' : 'advisor', model: text('model') || undefined };
    case 'delta':
      return { type: 'delta', text: text('text') };
    case 'done':
      return { type: 'done' };
    case 'error':
      return { type: 'error', key: text('key'), message: text('message') };
    default:
      return null;
  }
}

/**
 * POST /apis/ai/farm/question: asks about the field and yields the answer's events as they
 * arrive. A question refused before the answer starts fails with an ApiError.
 */
export async function* askQuestion(field: FieldChoice, question: string, signal?: AbortSignal): AsyncGenerator<AnswerEvent> {
  const body = await openEventStream('/ai/farm/question', { id: field.lead, field: field.others.filter((id) => id !== field.lead), question }, { signal });
  for await (const { event, data } of readEvents(body)) {
    const parsed = parse(event, data);
    if (parsed) yield parsed;
  }
}
