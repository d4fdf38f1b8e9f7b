// The texts every page may need (the login page needs no more) and antd's texts for the language:
// one small chunk, loaded before the first render.
import antdLocale from 'antd/es/locale/en_US';
import account from './account.json';
import common from './common.json';
import errors from './errors.json';
import nav from './nav.json';

export const resources = { common, nav, account, errors };

export { antdLocale };
