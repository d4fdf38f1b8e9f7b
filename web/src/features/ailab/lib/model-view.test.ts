import { describe, expect, it } from 'vitest';
import { boxPlacement, elementTotals, formatBytes, formatMillis, formatModelValue } from './model-view';

describe('formatBytes', () => {
  it('gives bytes, then KB and MB of 1,024 with one decimal', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(29_800)).toBe('29.1 KB');
    expect(formatBytes(5 * 1024 * 1024 + 300_000)).toBe('5.3 MB');
  });

  it('shows a missing value for nonsense', () => {
    expect(formatBytes(-1)).toBe('--');
    expect(formatBytes(Number.NaN)).toBe('--');
  });
});

describe('formatMillis', () => {
  it('keeps more decimals the shorter the time', () => {
    expect(formatMillis(3.456)).toBe('3.46 ms');
    expect(formatMillis(62.44)).toBe('62.4 ms');
    expect(formatMillis(1234.6)).toBe('1235 ms');
  });
});

describe('formatModelValue', () => {
  it('gives a count with one decimal at most', () => {
    expect(formatModelValue('count', 63.44)).toBe('63.4');
    expect(formatModelValue('count', 12)).toBe('12');
    expect(formatModelValue('count', 0.04)).toBe('0');
  });

  it('gives boxes whole and class scores as percentages', () => {
    expect(formatModelValue('boxes', 3)).toBe('3');
    expect(formatModelValue('classes', 0.875)).toBe('87.5 %');
    expect(formatModelValue('classes', 1)).toBe('100 %');
  });
});

describe('boxPlacement', () => {
  const size = { width: 640, height: 480 };

  it('places a box by percentages of the picture, whatever size it is shown at', () => {
    expect(boxPlacement({ x: 64, y: 120, w: 320, h: 240 }, size)).toEqual({ left: '10%', top: '25%', width: '50%', height: '50%' });
    expect(boxPlacement({ x: 1, y: 1, w: 1, h: 1 }, { width: 3, height: 3 })).toEqual({ left: '33.333%', top: '33.333%', width: '33.333%', height: '33.333%' });
  });

  it('cuts a box at the picture’s edges', () => {
    expect(boxPlacement({ x: -64, y: 400, w: 128, h: 200 }, size)).toEqual({ left: '0%', top: '83.333%', width: '10%', height: '16.667%' });
  });

  it('drops a box wholly off the picture, an empty one, or one on a picture of no size', () => {
    expect(boxPlacement({ x: 700, y: 10, w: 20, h: 20 }, size)).toBeNull();
    expect(boxPlacement({ x: 10, y: 10, w: 0, h: 20 }, size)).toBeNull();
    expect(boxPlacement({ x: 10, y: 10, w: 5, h: 5 }, { width: 0, height: 0 })).toBeNull();
  });
});

describe('elementTotals', () => {
  it('adds each element over the samples, in the model’s order', () => {
    const moth = { identifier: 'moth', name: 'Moth', unit: 'head' };
    const beetle = { identifier: 'beetle', name: 'Beetle', unit: 'head' };
    const totals = elementTotals([
      { values: [{ ...moth, value: 2.5 }, { ...beetle, value: 1 }] },
      { values: [{ ...moth, value: 4 }, { ...beetle, value: 0 }] },
    ]);
    expect(totals).toEqual([
      { ...moth, value: 6.5 },
      { ...beetle, value: 1 },
    ]);
  });

  it('leaves the answer it read unchanged', () => {
    const outputs = [{ values: [{ identifier: 'moth', name: 'Moth', unit: 'head', value: 1 }] }, { values: [{ identifier: 'moth', name: 'Moth', unit: 'head', value: 2 }] }];
    elementTotals(outputs);
    expect(outputs[0].values[0].value).toBe(1);
  });
});
