import { describe, expect, it } from 'vitest';
import { desktopEquivalent, mobileEquivalent, mobileLinkEquivalent } from './mobile-redirect';

describe('mobileEquivalent', () => {
  it.each([
    ['/', '/apps/mobile/devices'],
    ['/apps/devices', '/apps/mobile/devices'],
    ['/apps/devices/', '/apps/mobile/devices'],
    ['/apps/devices/map', '/apps/mobile/devices'],
    ['/apps/events', '/apps/mobile/messages'],
    ['/console/account', '/apps/mobile/account'],
    ['/console/authorization', '/apps/mobile/authorization'],
    ['/apps/service/moisture-report', '/apps/mobile/moisture-report'],
    ['/apps/advice', '/apps/mobile/advice'],
    ['/apps/poi/tianqi/h1/D7', '/apps/mobile/poi/h1/D7/realtime/tianqi'],
    ['/apps/poi/zhi-shang/h%201/D7', '/apps/mobile/poi/h%201/D7/realtime/zhi-shang'],
    ['/apps/poi/pluviometer/h1', '/apps/mobile/poi/h1/0/realtime/pluviometer'],
    ['/apps/poi/unknown/h1/D7', null],
    ['/apps/devicesx', null],
    ['/apps/rules', null],
    ['/console/api', null],
  ])('%s → %s', (pathname, expected) => {
    expect(mobileEquivalent(pathname)).toBe(expected);
  });
});

describe('desktopEquivalent', () => {
  it.each([
    ['/apps/mobile', '/apps/devices'],
    ['/apps/mobile/', '/apps/devices'],
    ['/apps/mobile/devices', '/apps/devices'],
    ['/apps/mobile/messages', '/apps/events'],
    ['/apps/mobile/profile', '/console/account'],
    ['/apps/mobile/account', '/console/account'],
    ['/apps/mobile/authorization', '/console/authorization'],
    ['/apps/mobile/moisture-report/7', '/apps/service/moisture-report'],
    ['/apps/mobile/advice', '/apps/advice'],
    ['/apps/mobile/authorization/accept/c%201', '/apps/authoried/grant?credential=c%201'],
    ['/apps/mobile/transfer/accept/abc', '/apps/authoried/transfer?credential=abc'],
    ['/apps/mobile/poi/h1/D7/realtime/tianqi', '/apps/poi/tianqi/h1/D7'],
    ['/apps/mobile/poi/h%201/D7/realtime/zhi-shang/', '/apps/poi/zhi-shang/h%201/D7'],
    ['/apps/mobile/poi/h1/D7/realtime/pluviometer', '/apps/poi/pluviometer/h1'],
    ['/apps/mobile/unknown', '/apps/devices'],
    ['/apps/devices', null],
    ['/apps/mobilex', null],
  ])('%s → %s', (pathname, expected) => {
    expect(desktopEquivalent(pathname)).toBe(expected);
  });

  it.each([
    ['/apps/mobile/poi/h1/D7', { hashId: 'h1', deviceId: 'D7' }],
    ['/apps/mobile/poi/h1/7/history', { hashId: 'h1', deviceId: '7' }],
    ['/apps/mobile/poi/h1/7/about/profile', { hashId: 'h1', deviceId: '7' }],
    ['/apps/mobile/poi/h%2F1/7/realtime', { hashId: 'h/1', deviceId: '7' }],
    // No desktop page of that name: the device's own page decides.
    ['/apps/mobile/poi/h1/7/realtime/meteorological-moisture', { hashId: 'h1', deviceId: '7' }],
  ])('%s → the detail page of device %o', (pathname, expected) => {
    expect(desktopEquivalent(pathname)).toEqual(expected);
  });
});

describe('mobileLinkEquivalent', () => {
  it.each([
    ['/apps/authoried/grant', '?credential=abc', '/apps/mobile/authorization/accept/abc'],
    ['/apps/authoried/transfer', '?credential=a%20b', '/apps/mobile/transfer/accept/a%20b'],
    ['/apps/authoried/grant', '', null],
    ['/apps/authoried/other', '?credential=abc', null],
  ])('%s%s → %s', (pathname, search, expected) => {
    expect(mobileLinkEquivalent(pathname, search)).toBe(expected);
  });
});
