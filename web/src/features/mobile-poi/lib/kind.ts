import { mobileRealtimeTypes } from '@/config/paths';
import { isDetailPage } from '@/lib/detail-path';

export type MobileRealtimeType = (typeof mobileRealtimeTypes)[number];

/** The soil moisture and weather station (ZSQ006): soil depths and weather on one phone page. */
const SOIL_WEATHER_TYPE = 21;

export function isMobileRealtimeType(value: unknown): value is MobileRealtimeType {
  return typeof value === 'string' && (mobileRealtimeTypes as readonly string[]).includes(value);
}

/**
 * The realtime child a device opens on the phone: its detail page kind (docs/device-types.md), except
 * the soil moisture and weather station, which the phone shows as `meteorological-moisture`.
 * Null when the device has no detail page.
 */
export function mobileRealtimeType(device: { typeId: number; page: string }): MobileRealtimeType | null {
  if (device.typeId === SOIL_WEATHER_TYPE) return 'meteorological-moisture';
  return isDetailPage(device.page) ? device.page : null;
}

/** Depth-resolved soil pages. */
export function hasSoil(type: MobileRealtimeType): boolean {
  return type === 'moisture' || type === 'zhi-shang' || type === 'dcr004' || type === 'meteorological-moisture';
}

/** The device's mobile base path /apps/mobile/poi/{hashId}/{deviceId}. */
export function mobileDeviceBase(hashId: string, deviceId: number | string): string {
  return `/apps/mobile/poi/${encodeURIComponent(hashId)}/${encodeURIComponent(String(deviceId))}`;
}
