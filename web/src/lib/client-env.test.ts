import { describe, expect, it } from 'vitest';
import { isMobileMode } from './client-env';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const WECHAT_DESKTOP = `${DESKTOP} MicroMessenger/3.9.10 WindowsWechat`;

describe('isMobileMode', () => {
  it.each([
    ['a phone', 390, IPHONE, true],
    ['an Android phone', 412, ANDROID, true],
    ['a tablet in portrait', 767, IPAD, true],
    ['a tablet in landscape', 1024, IPAD, false],
    ['a narrow desktop window', 500, DESKTOP, false],
    ['a wide desktop window', 1440, DESKTOP, false],
    ['the messaging app, even wide', 1440, WECHAT_DESKTOP, true],
    ['the messaging app in any case', 1440, `${DESKTOP} micromessenger`, true],
  ])('%s', (_name, width, userAgent, expected) => {
    expect(isMobileMode({ width, userAgent })).toBe(expected);
  });
});
