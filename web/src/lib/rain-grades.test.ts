import { describe, expect, it } from 'vitest';
import { rainClassKey, warningLevel } from './rain-grades';

describe('rainClassKey', () => {
  it.each([
    ['none', 'none'],
    ['light', 'light'],
    ['moderate', 'moderate'],
    ['heavy', 'heavy'],
    ['storm', 'storm'],
    ['heavy storm', 'heavyStorm'],
    ['severe storm', 'severeStorm'],
  ])('the server class %j reads as %s', (name, key) => {
    expect(rainClassKey(name)).toBe(key);
  });

  it('has no key for a missing or unknown class', () => {
    expect(rainClassKey('')).toBeNull();
    expect(rainClassKey(undefined)).toBeNull();
    expect(rainClassKey('drizzle')).toBeNull();
  });
});

describe('warningLevel', () => {
  it('keeps the server level within 0–4', () => {
    expect(warningLevel({ level: 3 })).toBe(3);
    expect(warningLevel({ level: 9 })).toBe(4);
    expect(warningLevel({ level: -1 })).toBe(0);
    expect(warningLevel(null)).toBe(0);
  });
});
