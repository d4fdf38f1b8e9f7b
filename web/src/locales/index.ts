import enAccount from './en_US/account.json';
import enCommon from './en_US/common.json';
import enDevices from './en_US/devices.json';
import enErrors from './en_US/errors.json';
import enNav from './en_US/nav.json';
import enPoi from './en_US/poi.json';
import enRules from './en_US/rules.json';
import enSharing from './en_US/sharing.json';
import enIntegration from './en_US/integration.json';
import enMobilePoi from './en_US/mobilePoi.json';
import cnAccount from './zh_CN/account.json';
import cnCommon from './zh_CN/common.json';
import cnDevices from './zh_CN/devices.json';
import cnErrors from './zh_CN/errors.json';
import cnNav from './zh_CN/nav.json';
import cnPoi from './zh_CN/poi.json';
import cnRules from './zh_CN/rules.json';
import cnSharing from './zh_CN/sharing.json';
import cnIntegration from './zh_CN/integration.json';
import cnMobilePoi from './zh_CN/mobilePoi.json';
import twAccount from './zh_TW/account.json';
import twCommon from './zh_TW/common.json';
import twDevices from './zh_TW/devices.json';
import twErrors from './zh_TW/errors.json';
import twNav from './zh_TW/nav.json';
import twPoi from './zh_TW/poi.json';
import twRules from './zh_TW/rules.json';
import twSharing from './zh_TW/sharing.json';
import twIntegration from './zh_TW/integration.json';
import twMobilePoi from './zh_TW/mobilePoi.json';

/** The base language: its files define which keys exist and their types. */
export const baseResources = {
  common: cnCommon,
  nav: cnNav,
  account: cnAccount,
  errors: cnErrors,
  devices: cnDevices,
  poi: cnPoi,
  rules: cnRules,
  sharing: cnSharing,
  integration: cnIntegration,
  mobilePoi: cnMobilePoi,
};

export type Namespace = keyof typeof baseResources;
export type Resources = typeof baseResources;

export const namespaces = Object.keys(baseResources) as Namespace[];

type LooseResources = Record<Namespace, Record<string, unknown>>;

export const resources: Record<'zh_CN' | 'zh_TW' | 'en_US', LooseResources> = {
  zh_CN: baseResources,
  zh_TW: { common: twCommon, nav: twNav, account: twAccount, errors: twErrors, devices: twDevices, poi: twPoi, rules: twRules, sharing: twSharing, integration: twIntegration, mobilePoi: twMobilePoi },
  en_US: { common: enCommon, nav: enNav, account: enAccount, errors: enErrors, devices: enDevices, poi: enPoi, rules: enRules, sharing: enSharing, integration: enIntegration, mobilePoi: enMobilePoi },
};
