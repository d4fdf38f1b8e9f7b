import { describe, expect, it } from 'vitest';
import { indexReadings } from '@/lib/telemetry/readings';
import { openingParams } from './poi-detail-page';

const reading = (param: string) => ({ param, name: param, unit: '', precision: 0, node: 0, value: 3, time: 1_700_000_000_000 });

describe('the curves a device page opens with', () => {
  it('leaves out the AI lab count on a camera no application has counted for', () => {
    const readings = indexReadings([reading('airTemp'), reading('airHumidity')]);
    expect(openingParams('ibiosense', readings)).toEqual(['insectCount', 'airTemp', 'airHumidity', 'illuminance']);
  });

  it('opens the AI lab count once the device has one', () => {
    const readings = indexReadings([reading('airTemp'), reading('detectCount')]);
    expect(openingParams('ibiosense', readings)).toContain('detectCount');
  });

  it('keeps the kind’s measured curves even before the first report', () => {
    expect(openingParams('tianqi', indexReadings([]))).toEqual(['airTemp', 'airHumidity', 'windSpeed', 'rainfall', 'pm25', 'co2']);
  });
});
