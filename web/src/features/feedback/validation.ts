/**
 * The feedback form's checks, the same limits the server applies (internal/feedback): the server
 * judges a screenshot by its content; here the browser's type and size give the early answer.
 */
export const MAX_TEXT = 2000;
export const MAX_CONTACT = 100;
export const MAX_SCREENSHOTS = 3;
export const MAX_SHOT_BYTES = 5 * 1024 * 1024;
export const SHOT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export type ShotProblem = 'type' | 'size' | 'count' | null;

/** Why a file cannot be a screenshot, given how many are already chosen; null when it can. */
export function shotProblem(file: { type: string; size: number }, chosen: number): ShotProblem {
  if (chosen >= MAX_SCREENSHOTS) return 'count';
  if (!(SHOT_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > MAX_SHOT_BYTES) return 'size';
  return null;
}

export type TextProblem = 'required' | 'tooLong' | null;

/** The text is required (not blank) and at most MAX_TEXT characters, counted as the server does. */
export function textProblem(text: string | undefined): TextProblem {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return 'required';
  if ([...trimmed].length > MAX_TEXT) return 'tooLong';
  return null;
}

/** The contact is optional and at most MAX_CONTACT characters. */
export function contactTooLong(contact: string | undefined): boolean {
  return [...(contact ?? '').trim()].length > MAX_CONTACT;
}

/** The contact to offer: the account's bound e-mail address, else its phone. */
export function defaultContact(profile: { mail: string | null; phone: string | null } | undefined): string {
  return profile?.mail || profile?.phone || '';
}
