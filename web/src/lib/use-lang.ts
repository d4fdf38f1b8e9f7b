import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from './i18n';

/**
 * The language in use; components re-render when it changes. Answers with localized text (type,
 * status and parameter names, templates, messages) carry it in their query keys, so a switch
 * fetches them again.
 */
export function useLang(): Language {
  const { i18n } = useTranslation();
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}
