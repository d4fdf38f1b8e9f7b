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
  if (isLanguage(i18n.resolvedLanguage)) return i18n.resolvedLanguage;
  // Before the language's texts are in, i18next has not resolved it yet: the one being started.
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

function applyLanguage(language: Language) {
  dayjs.locale(DAYJS_LOCALE[language]);
  document.documentElement.lang = HTML_LANG[language];
}

interface TextChunk {
  resources: Partial<Record<Namespace, Record<string, unknown>>>;
  antdLocale?: Locale;
}

/** The texts of every page (with antd's), or those of the console's features as well. */
export type TextPart = 'core' | 'features';

// Two chunks per language: the login page loads only its language's core texts; the first console
// page adds its language's feature texts.
const TEXT_CHUNKS: Record<Language, Record<TextPart, () => Promise<TextChunk>>> = {
  zh_CN: { core: () => import('@/locales/zh_CN'), features: () => import('@/locales/zh_CN/features') },
  zh_TW: { core: () => import('@/locales/zh_TW'), features: () => import('@/locales/zh_TW/features') },
  en_US: { core: () => import('@/locales/en_US'), features: () => import('@/locales/en_US/features') },
};
const PART_NAMESPACE: Record<TextPart, Namespace> = { core: 'common', features: 'poi' };

const chunks = new Map<string, Promise<TextChunk>>();
const antdLocales: Partial<Record<Language, Locale>> = {};
let featuresWanted = false;

async function loadPart(language: Language, part: TextPart) {
  const key = `${language}/${part}`;
  let chunk = chunks.get(key);
  if (!chunk) {
    chunk = TEXT_CHUNKS[language][part]();
    chunk.catch(() => chunks.delete(key));
    chunks.set(key, chunk);
  }
  const loaded = await chunk;
  // Added again should i18next have been initialised anew (the unit tests do, once per file).
  if (!i18n.hasResourceBundle(language, PART_NAMESPACE[part])) {
    for (const [namespace, texts] of Object.entries(loaded.resources)) {
      i18n.addResourceBundle(language, namespace, texts, true, true);
    }
  }
  if (loaded.antdLocale) antdLocales[language] = loaded.antdLocale;
}

/**
 * Loads a language's texts into i18next: its core texts, and its feature texts once any page
 * asked for them (loadFeatureTexts). initI18n must have run.
 */
export async function loadLanguage(language: Language): Promise<void> {
  await Promise.all([loadPart(language, 'core'), featuresWanted ? loadPart(language, 'features') : undefined]);
}

/** Loads the current language's feature texts: every console page awaits it before it renders. */
export async function loadFeatureTexts(): Promise<void> {
  featuresWanted = true;
  await loadPart(currentLanguage(), 'features');
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
    ns: ['common', 'nav', 'account', 'errors', 'briefing', 'devices', 'poi', 'rules', 'sharing', 'integration', 'mobilePoi'] satisfies Namespace[],
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

/** initI18n, then the language's core texts; resolves when the first render can show them. */
export async function startI18n(language: Language): Promise<void> {
  initI18n(language);
  await loadLanguage(language);
  // i18next resolves the language against the texts it has: now that they are there.
  await i18n.changeLanguage(language);
}

export { i18n };
