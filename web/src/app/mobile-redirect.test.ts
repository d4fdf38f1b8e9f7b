import { describe, expect, it } from 'vitest';
import { mobileEquivalent } from './mobile-redirect';

describe('mobileEquivalent', () => {
  it.each([
    ['/', '/apps/mobile/devices'],
    ['/apps/devices', '/apps/mobile/devices'],
    ['/apps/devices/', '/apps/mobile/devices'],
    ['/apps/devices/map', '/apps/mobile/devices'],
    ['/apps/events', '/apps/mobile/messages'],
    ['/console/account', '/apps/mobile/account'],
    ['/apps/poi/tianqi/h1/D7', '/apps/mobile/poi/h1/D7/realtime/tianqi'],
    ['/apps/poi/zhi-shang/h%201/D7', '/apps/mobile/poi/h%201/D7/realtime/zhi-shang'],
    ['/apps/poi/pluviometer/h1', null],
    ['/apps/poi/unknown/h1/D7', null],
    ['/apps/devicesx', null],
    ['/apps/rules', null],
    ['/console/api', null],
  ])('%s → %s', (pathname, expected) => {
    expect(mobileEquivalent(pathname)).toBe(expected);
  });
});
