// Every language at once, for the locale tests and the unit tests' set-up. The app itself imports
// only types from here and loads one language's chunk at a time (lib/i18n.ts: loadLanguage).
import * as enUS from './en_US';
import * as zhCN from './zh_CN';
import * as zhTW from './zh_TW';

/** The base language: its files define which keys exist and their types. */
export const baseResources = zhCN.resources;

export type Namespace = keyof typeof baseResources;
export type Resources = typeof baseResources;

export const namespaces = Object.keys(baseResources) as Namespace[];

type LooseResources = Record<Namespace, Record<string, unknown>>;

export const resources: Record<'zh_CN' | 'zh_TW' | 'en_US', LooseResources> = {
  zh_CN: baseResources,
  zh_TW: zhTW.resources,
  en_US: enUS.resources,
};
