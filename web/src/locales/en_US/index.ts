// One language's texts and antd's texts for it, loaded as one chunk when the language is chosen.
import antdLocale from 'antd/es/locale/en_US';
import account from './account.json';
import common from './common.json';
import devices from './devices.json';
import errors from './errors.json';
import integration from './integration.json';
import nav from './nav.json';
import poi from './poi.json';
import rules from './rules.json';
import sharing from './sharing.json';

export const resources = { common, nav, account, errors, devices, poi, rules, sharing, integration };

export { antdLocale };
