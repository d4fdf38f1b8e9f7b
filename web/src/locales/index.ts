// Every language at once, for the locale tests and the unit tests' types. The app itself imports
// only types from here and loads a language's chunks as it needs them (lib/i18n.ts).
import * as enUSFeatures from './en_US/features';
import * as enUS from './en_US';
import * as zhCNFeatures from './zh_CN/features';
import * as zhCN from './zh_CN';
import * as zhTWFeatures from './zh_TW/features';
import * as zhTW from './zh_TW';

/** The base language: its files define which keys exist and their types. */
export const baseResources = { ...zhCN.resources, ...zhCNFeatures.resources };

export type Namespace = keyof typeof baseResources;
export type Resources = typeof baseResources;

export const namespaces = Object.keys(baseResources) as Namespace[];

type LooseResources = Record<Namespace, Record<string, unknown>>;

export const resources: Record<'zh_CN' | 'zh_TW' | 'en_US', LooseResources> = {
  zh_CN: baseResources,
  zh_TW: { ...zhTW.resources, ...zhTWFeatures.resources },
  en_US: { ...enUS.resources, ...enUSFeatures.resources },
};
