import { describe, expect, test } from 'vitest';
import { idPoints } from './id-points';

describe('I-D points', () => {
  test('split by the threshold; log axes drop zero', () => {
    const events = [
      { hours: 3, intensity: 12, exceeded: true },
      { hours: 10, intensity: 1, exceeded: false },
      { hours: 0, intensity: 5, exceeded: false },
    ];
    expect(idPoints(events, true)).toEqual([[3, 12]]);
    expect(idPoints(events, false)).toEqual([[10, 1]]);
  });
});
