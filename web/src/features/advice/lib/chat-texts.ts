import type { FailureKind } from './chat';

/** Questions offered before the first one: the topics the embedded advisor recognises. */
export const SUGGESTIONS = ['irrigate', 'why', 'frost', 'stage', 'pests'] as const;

/** The title that says what went wrong with an answer. */
export function failureTitleKey(kind: FailureKind) {
  return `chat.error.${kind}` as const;
}
