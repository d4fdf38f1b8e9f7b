import type { Language } from './i18n';

/**
 * Query keys of a device's data, shared by every feature that draws on a detail page, so invalidating
 * `device(id)` refreshes all of them. Answers with localized text (type, status and parameter names,
 * advice) are cached per language, so switching language fetches them again.
 */
export const poiKeys = {
  all: ['poi'] as const,
  device: (id: number) => ['poi', id] as const,
  localized: (id: number, what: string, lang: Language) => ['poi', id, what, lang] as const,
  plain: (id: number, what: string, ...rest: unknown[]) => ['poi', id, what, ...rest] as const,
};
