import { describe, expect, it } from 'vitest';
import { backTarget } from './mobile-back';

describe('backTarget', () => {
  it('returns to the phone tab a device was opened from, with its filters', () => {
    expect(backTarget({ from: '/apps/mobile/messages?unread=true&level=alarm' }, '/apps/mobile/devices')).toBe('/apps/mobile/messages?unread=true&level=alarm');
    expect(backTarget({ from: '/apps/mobile/devices?view=map&focus=3' }, '/apps/mobile/devices')).toBe('/apps/mobile/devices?view=map&focus=3');
  });

  it('falls back to the devices tab without a state, or with one that is not a phone tab', () => {
    for (const state of [null, undefined, {}, { from: 3 }, { from: 'https://evil.test/apps/mobile/x' }, { from: '/apps/devices' }, { from: '/apps/mobile/poi/h1/1/about' }]) {
      expect(backTarget(state, '/apps/mobile/devices')).toBe('/apps/mobile/devices');
    }
  });
});
