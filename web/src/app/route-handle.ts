import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import type { Resources } from '@/locales';

export type PageKey = keyof Resources['nav']['pages'];

/** Data a route carries for the shell: the title shown in the tab and on placeholder pages. */
export interface RouteHandle {
  title?: PageKey;
}

/** The localized title of the deepest matched route that has one. */
export function usePageTitle(): string | undefined {
  const matches = useMatches();
  const { t } = useTranslation('nav');
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const key = (matches[index].handle as RouteHandle | undefined)?.title;
    if (key) return t(`pages.${key}`);
  }
  return undefined;
}
