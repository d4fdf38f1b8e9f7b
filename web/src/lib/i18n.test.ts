import { describe, expect, it } from 'vitest';
import { changeLanguage, i18n, initialLanguage, languageFromTag } from './i18n';

describe('languageFromTag', () => {
  it.each([
    ['zh-CN', 'zh_CN'],
    ['zh-Hans', 'zh_CN'],
    ['zh-Hans-HK', 'zh_CN'],
    ['zh', 'zh_CN'],
    ['zh-SG', 'zh_CN'],
    ['zh-TW', 'zh_TW'],
    ['zh-HK', 'zh_TW'],
    ['zh-Hant', 'zh_TW'],
    ['zh-Hant-TW', 'zh_TW'],
    ['en', 'en_US'],
    ['en-GB', 'en_US'],
    ['fr-FR', 'en_US'],
    ['', 'en_US'],
    [undefined, 'en_US'],
  ])('%s → %s', (tag, expected) => {
    expect(languageFromTag(tag)).toBe(expected);
  });
});

describe('initialLanguage', () => {

  it('starts the desktop console in zh_CN and the phone app in the browser language', () => {
    expect(initialLanguage(false, 'en-US')).toBe('zh_CN');
    expect(initialLanguage(true, 'zh-TW')).toBe('zh_TW');
    expect(initialLanguage(true, 'de-DE')).toBe('en_US');
  });

  it('prefers the stored choice', () => {
    window.localStorage.setItem('i18n', 'zh_TW');
    expect(initialLanguage(false)).toBe('zh_TW');
    expect(initialLanguage(true, 'en-US')).toBe('zh_TW');
  });

  it('ignores a stored value that is not a language', () => {
    window.localStorage.setItem('i18n', 'fr_FR');
    expect(initialLanguage(false)).toBe('zh_CN');
  });
});

describe('changeLanguage', () => {

  it('stores the choice, translates and marks <html lang>', async () => {
    await changeLanguage('zh_TW');
    expect(window.localStorage.getItem('i18n')).toBe('zh_TW');
    expect(document.documentElement.lang).toBe('zh-TW');
    expect(i18n.t('errors:pleaseLogIn')).toBe('請先登入');

    await changeLanguage('en_US');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('errors:pleaseLogIn')).toBe('Please log in first');
  });
});
