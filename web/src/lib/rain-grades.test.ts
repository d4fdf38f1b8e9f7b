import { describe, expect, it } from 'vitest';
import { rainClassKey, WARNING_HEX, warningLevel, warningTextColor } from './rain-grades';

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

describe('warning signal badges', () => {
  const luminance = (rgb: number[]) =>
    rgb.map((c) => c / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const hex = (color: string) => [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  /** A text colour (#fff or rgba black) laid over the badge. */
  const text = (color: string, bg: number[]) => (color === '#fff' ? [255, 255, 255] : bg.map((c) => c * (1 - Number(color.match(/[\d.]+\)$/)![0].slice(0, -1)))));

  it.each([1, 2, 3, 4] as const)('level %i carries its text at 4.5:1 or more', (level) => {
    const bg = hex(WARNING_HEX[level]);
    const [hi, lo] = [luminance(text(warningTextColor(level), bg)), luminance(bg)].sort((a, b) => b - a);
    expect((hi + 0.05) / (lo + 0.05)).toBeGreaterThanOrEqual(4.5);
  });
});
