// The texts every page may need (the login page needs no more): one small chunk, loaded before the
// first render.
import account from './account.json';
import common from './common.json';
import errors from './errors.json';
import nav from './nav.json';

export const resources = { common, nav, account, errors };
