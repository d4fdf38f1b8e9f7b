import dayjs from 'dayjs';
import 'dayjs/locale/en';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import type { Locale } from 'antd/es/locale';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Namespace, Resources } from '@/locales';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: Resources;
  }
}

export const LANGUAGES = ['zh_CN', 'zh_TW', 'en_US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh_CN';

const STORAGE_KEY = 'i18n';

const HTML_LANG: Record<Language, string> = { zh_CN: 'zh-CN', zh_TW: 'zh-TW', en_US: 'en' };
const DAYJS_LOCALE: Record<Language, string> = { zh_CN: 'zh-cn', zh_TW: 'zh-tw', en_US: 'en' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Maps a BCP 47 tag such as navigator.language to a supported language; unknown tags get en_US. */
export function languageFromTag(tag: string | undefined | null): Language {
  const lower = (tag ?? '').toLowerCase().replace(/_/g, '-');
  if (lower.startsWith('zh-hans')) return 'zh_CN';
  if (lower.startsWith('zh-hant') || /^zh-(tw|hk|mo)\b/.test(lower)) return 'zh_TW';
  if (lower === 'zh' || lower.startsWith('zh-')) return 'zh_CN';
  return 'en_US';
}

export function readStoredLanguage(): Language | null {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

/**
 * The stored choice wins; otherwise the desktop console starts in zh_CN and the phone app
 * follows the browser's language.
 */
export function initialLanguage(mobile: boolean, browserLanguage?: string): Language {
  const stored = readStoredLanguage();
  if (stored) return stored;
  return mobile ? languageFromTag(browserLanguage) : DEFAULT_LANGUAGE;
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

function applyLanguage(language: Language) {
  dayjs.locale(DAYJS_LOCALE[language]);
  document.documentElement.lang = HTML_LANG[language];
}

interface LanguageChunk {
  resources: Record<Namespace, Record<string, unknown>>;
  antdLocale: Locale;
}

// One chunk per language (its texts and antd's): a page loads only the language it shows.
const LANGUAGE_CHUNKS: Record<Language, () => Promise<LanguageChunk>> = {
  zh_CN: () => import('@/locales/zh_CN'),
  zh_TW: () => import('@/locales/zh_TW'),
  en_US: () => import('@/locales/en_US'),
};

const chunks = new Map<Language, Promise<LanguageChunk>>();
const antdLocales: Partial<Record<Language, Locale>> = {};

/** Loads a language's texts into i18next (the chunk once; again into a re-initialised i18next). */
export async function loadLanguage(language: Language): Promise<void> {
  let chunk = chunks.get(language);
  if (!chunk) {
    chunk = LANGUAGE_CHUNKS[language]();
    chunk.catch(() => chunks.delete(language));
    chunks.set(language, chunk);
  }
  const loaded = await chunk;
  if (!i18n.hasResourceBundle(language, 'common')) {
    for (const [namespace, texts] of Object.entries(loaded.resources)) {
      i18n.addResourceBundle(language, namespace, texts, true, true);
    }
  }
  antdLocales[language] = loaded.antdLocale;
}

/** antd's texts for a language already loaded (undefined before: antd's own English). */
export function antdLocale(language: Language): Locale | undefined {
  return antdLocales[language];
}

export async function changeLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Private mode may refuse storage; the choice still applies to this page.
  }
  await i18n.changeLanguage(language);
}

i18n.on('languageChanged', (language) => {
  if (isLanguage(language)) applyLanguage(language);
});

/**
 * Starts i18next with no texts: loadLanguage adds them. There is no fallback language, so an
 * English page never downloads the Chinese texts; src/locales/locales.test.ts keeps every
 * language's key set equal to zh_CN's.
 */
export function initI18n(language: Language) {
  const development = import.meta.env.DEV;
  void i18n.use(initReactI18next).init({
    resources: {},
    lng: language,
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    fallbackLng: false,
    ns: ['common', 'nav', 'account', 'errors', 'devices', 'poi', 'rules', 'sharing', 'integration'] satisfies Namespace[],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    saveMissing: development,
    missingKeyHandler: development
      ? (languages, namespace, key) => console.error(`Missing i18n key ${namespace}:${key} for ${languages.join(',')}`)
      : undefined,
  });
  applyLanguage(language);
  return i18n;
}

export { i18n };
