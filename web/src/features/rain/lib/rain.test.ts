import { describe, expect, it } from 'vitest';
import { overlaps, rainDimFor, warningDaysFor } from './rain';

const DAY = 86_400_000;

describe('overlaps', () => {
  const period = { begin: 100, end: 200 };
  it('counts spells that touch the period', () => {
    expect(overlaps({ start: 50, end: 100 }, period)).toBe(true);
    expect(overlaps({ start: 150, end: 160 }, period)).toBe(true);
    expect(overlaps({ start: 200, end: 300 }, period)).toBe(true);
  });
  it('leaves out spells before or after it', () => {
    expect(overlaps({ start: 10, end: 99 }, period)).toBe(false);
    expect(overlaps({ start: 201, end: 300 }, period)).toBe(false);
  });
});

describe('rainDimFor', () => {
  it('asks for hours up to a week and days beyond or when daily values are chosen', () => {
    expect(rainDimFor({ begin: 0, end: DAY }, 'raw')).toBe('hour');
    expect(rainDimFor({ begin: 0, end: 7 * DAY }, 'raw')).toBe('hour');
    expect(rainDimFor({ begin: 0, end: 7 * DAY + 1 }, 'raw')).toBe('day');
    expect(rainDimFor({ begin: 0, end: DAY }, 'daily')).toBe('day');
  });
});

describe('warningDaysFor', () => {
  const now = 1000 * DAY;
  it('reaches back to the start of the period', () => {
    expect(warningDaysFor(now - 7 * DAY + 60_000, now)).toBe(7);
    expect(warningDaysFor(now - 30 * DAY, now)).toBe(30);
    expect(warningDaysFor(now - 1000, now)).toBe(1);
  });
  it('gives up past the 90 days the server keeps', () => {
    expect(warningDaysFor(now - 90 * DAY, now)).toBe(90);
    expect(warningDaysFor(now - 91 * DAY, now)).toBeNull();
  });
});
