import { describe, expect, it } from 'vitest';
import { mobileRealtimeTypes } from '@/config/paths';
import { hasSoil, isMobileRealtimeType, mobileDeviceBase, mobileRealtimeType } from './kind';

describe('mobileRealtimeType', () => {
  it("opens a device's own detail page kind", () => {
    expect(mobileRealtimeType({ typeId: 1, page: 'moisture' })).toBe('moisture');
    expect(mobileRealtimeType({ typeId: 6, page: 'pluviometer' })).toBe('pluviometer');
    expect(mobileRealtimeType({ typeId: 20, page: 'ibiosense' })).toBe('ibiosense');
  });

  it('shows the soil moisture and weather station (21) as meteorological-moisture, the Zhishang station (2) as zhi-shang', () => {
    expect(mobileRealtimeType({ typeId: 21, page: 'zhi-shang' })).toBe('meteorological-moisture');
    expect(mobileRealtimeType({ typeId: 2, page: 'zhi-shang' })).toBe('zhi-shang');
  });

  it('has no page for an unknown kind', () => {
    expect(mobileRealtimeType({ typeId: 99, page: '' })).toBeNull();
    expect(mobileRealtimeType({ typeId: 99, page: 'et0' })).toBeNull();
  });

  it('every type the routes list is a known type; soil types are the depth-resolved ones', () => {
    for (const type of mobileRealtimeTypes) expect(isMobileRealtimeType(type)).toBe(true);
    expect(isMobileRealtimeType('realtime')).toBe(false);
    expect(mobileRealtimeTypes.filter(hasSoil)).toEqual(['moisture', 'zhi-shang', 'meteorological-moisture', 'dcr004']);
  });

  it('builds the device base path with encoded parts', () => {
    expect(mobileDeviceBase('a b', 7)).toBe('/apps/mobile/poi/a%20b/7');
  });
});
