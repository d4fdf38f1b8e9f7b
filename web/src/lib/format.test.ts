import { beforeEach, describe, expect, it } from 'vitest';
import { formatDateTime, formatRelativeTime, formatReportTime, initialOf, MISSING, truncateDecimal } from './format';
import { changeLanguage } from './i18n';

describe('truncateDecimal', () => {
  it.each([
    [12.349, '12.34'],
    [12.345, '12.34'],
    [0.29, '0.29'],
    [1.005, '1'],
    [2.675, '2.67'],
    [-3.789, '-3.78'],
    [-0.004, '0'],
    [23.5, '23.5'],
    [7, '7'],
    ['18.999', '18.99'],
  ])('cuts %s to %s', (value, expected) => {
    expect(truncateDecimal(value)).toBe(expected);
  });

  it('honours other precisions', () => {
    expect(truncateDecimal(3.14159, 3)).toBe('3.141');
    expect(truncateDecimal(3.9, 0)).toBe('3');
  });

  it.each([null, undefined, '', '  ', 'abc', Number.NaN, Number.POSITIVE_INFINITY])('shows %s as --', (value) => {
    expect(truncateDecimal(value)).toBe(MISSING);
  });
});

describe('time formats', () => {
  const now = new Date(2024, 4, 10, 14, 30, 0).getTime();
  const minute = 60_000;
  const day = 24 * 60 * minute;

  beforeEach(() => changeLanguage('en_US'));

  it.each([
    [now - 59_000, 'just now'],
    [now + 5_000, 'just now'],
    [now - minute, '1 minute ago'],
    [now - 59 * minute, '59 minutes ago'],
    [now - 60 * minute, '1 hour ago'],
    [now - 23 * 60 * minute, '23 hours ago'],
    [now - day, '1 day ago'],
    [now - 29 * day, '29 days ago'],
    [now - 30 * day, '1 month ago'],
    [now - 364 * day, '12 months ago'],
    [now - 365 * day, '1 year ago'],
    [now - 800 * day, '2 years ago'],
  ])('relative time of %i', (time, expected) => {
    expect(formatRelativeTime(time, now)).toBe(expected);
  });

  it('speaks the current language', async () => {
    await changeLanguage('zh_CN');
    expect(formatRelativeTime(now - 3 * 60 * minute, now)).toBe('3 小时前');
    expect(formatRelativeTime(now - 10_000, now)).toBe('刚刚');
  });

  it('report time: HH:mm today, MM.DD HH:mm this year, YYYY.MM.DD before', () => {
    expect(formatReportTime(new Date(2024, 4, 10, 8, 5).getTime(), now)).toBe('08:05');
    expect(formatReportTime(new Date(2024, 4, 9, 23, 59).getTime(), now)).toBe('05.09 23:59');
    expect(formatReportTime(new Date(2024, 0, 1, 0, 0).getTime(), now)).toBe('01.01 00:00');
    expect(formatReportTime(new Date(2023, 11, 31, 23, 59).getTime(), now)).toBe('2023.12.31');
  });

  it('shows missing times as --', () => {
    expect(formatReportTime(null, now)).toBe(MISSING);
    expect(formatRelativeTime(undefined, now)).toBe(MISSING);
    expect(formatDateTime(null)).toBe(MISSING);
    expect(formatDateTime(new Date(2024, 4, 10, 8, 5, 9).getTime())).toBe('2024-05-10 08:05:09');
  });
});

describe('initialOf', () => {
  it('takes the first visible character', () => {
    expect(initialOf('示范农场')).toBe('示');
    expect(initialOf('  demo')).toBe('D');
    expect(initialOf('🌾 farm')).toBe('🌾');
    expect(initialOf('')).toBe('');
  });
});
