import { describe, expect, it } from 'vitest';
import { formatDuration, formatRate, prettyJson, rateTone } from './format';

describe('push figures', () => {
  it('durations in ms under a second, else seconds', () => {
    expect(formatDuration(null)).toBe('--');
    expect(formatDuration(42)).toBe('42 ms');
    expect(formatDuration(0)).toBe('< 1 ms');
    expect(formatDuration(1234)).toBe('1.23 s');
    expect(formatDuration(10_000)).toBe('10 s');
  });

  it('rates as percentages cut, not rounded', () => {
    expect(formatRate(null)).toBe('--');
    expect(formatRate(1)).toBe('100%');
    expect(formatRate(0.9996)).toBe('99.9%');
    expect(formatRate(0)).toBe('0%');
    expect(rateTone(1)).toBe('success');
    expect(rateTone(0.95)).toBe('warning');
    expect(rateTone(0.5)).toBe('danger');
    expect(rateTone(null)).toBeUndefined();
  });

  it('pretty-prints JSON bodies', () => {
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('not json')).toBe('not json');
  });
});
