import { afterEach, describe, expect, it } from 'vitest';
import { setFarmZone } from '@/lib/farm-time';
import { DAY } from '@/lib/time-range';
import { defaultNodes, rangeOf, visibleWindow, zoomPercent } from './history';

afterEach(() => setFarmZone(null));

describe('rangeOf', () => {
  const now = Date.UTC(2026, 10, 26, 10, 30, 20);
  it('ends a preset at the next whole minute', () => {
    const range = rangeOf({ preset: '7d' }, now);
    expect(range.end).toBe(Date.UTC(2026, 10, 26, 10, 31));
    expect(range.end - range.begin).toBe(7 * DAY);
  });

  it("spans custom days from the first day's farm midnight to the end of the last, in either order, never past now", () => {
    setFarmZone('Asia/Shanghai');
    const range = rangeOf({ from: new Date(2026, 10, 20), to: new Date(2026, 10, 18) }, now);
    expect(range.begin).toBe(Date.UTC(2026, 10, 17, 16));
    expect(range.end).toBe(Date.UTC(2026, 10, 20, 16));
    const today = rangeOf({ from: new Date(2026, 10, 25), to: new Date(2026, 10, 26) }, now);
    expect(today.end).toBe(Date.UTC(2026, 10, 26, 10, 31));
  });
});

describe('defaultNodes', () => {
  it('starts with up to three depths: all of a short list, else the top, a middle and the bottom', () => {
    expect(defaultNodes([30, 10, 20])).toEqual([10, 20, 30]);
    expect(defaultNodes([10, 20, 30, 40, 50, 60])).toEqual([10, 30, 60]);
    expect(defaultNodes([10, 20, 30, 40, 50, 60, 70, 80, 90, 100])).toEqual([10, 50, 100]);
    expect(defaultNodes([])).toEqual([]);
  });
});

describe('zoom window', () => {
  it('reads the percentages of a datazoom event, batched (touch, actions) or not (slider)', () => {
    expect(zoomPercent({ batch: [{ start: 25, end: 75 }] })).toEqual({ start: 25, end: 75 });
    expect(zoomPercent({ start: 0, end: 50 })).toEqual({ start: 0, end: 50 });
    expect(zoomPercent({ batch: [{ startValue: 1 }] })).toBeNull();
    expect(zoomPercent(null)).toBeNull();
  });
  it('turns percentages into instants of the range', () => {
    expect(visibleWindow({ begin: 1000, end: 2000 }, { start: 25, end: 50 })).toEqual({ begin: 1250, end: 1500 });
  });
});
