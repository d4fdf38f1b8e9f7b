import { describe, expect, it } from 'vitest';
import { bandLabel, soilDevicesOf, weekdayKey } from './types';

describe('briefing presets', () => {
  it('takes the soil devices of the regions once each, keeping their field-capacity overrides', () => {
    const regions = [
      { name: 'North', deviceIds: [3, 1] },
      { name: 'South', deviceIds: [1, 4] },
    ];
    expect(soilDevicesOf(regions, [{ deviceId: 4, fieldCapacity: 31 }, { deviceId: 9, fieldCapacity: 20 }])).toEqual([
      { deviceId: 3 },
      { deviceId: 1 },
      { deviceId: 4, fieldCapacity: 31 },
    ]);
  });

  it('names the bands of SPEC §9 and the weekdays', () => {
    expect([1, 2, 3].map(bandLabel)).toEqual(['0–20 cm', '20–40 cm', '40–60 cm']);
    expect([0, 6, 7, -1].map(weekdayKey)).toEqual(['weekday.0', 'weekday.6', 'weekday.0', 'weekday.6']);
  });
});
