import { MISSING, truncateDecimal } from '@/lib/format';
import type { ListFilters } from './list-query';
import type { DeviceStatus, MapDevice } from './types';

/** Under this voltage a lithium cell needs charging (SPEC §9: charge at least 4 hours). */
export const LOW_BATTERY_VOLTS = 3.2;

export function isLowBattery(volts: number | null | undefined): boolean {
  return typeof volts === 'number' && Number.isFinite(volts) && volts < LOW_BATTERY_VOLTS;
}

/** antd Tag colours by status: healthy green, attention orange, broken red, idle grey, logistics blue. */
const STATUS_COLORS: Record<DeviceStatus, 'success' | 'warning' | 'error' | 'default' | 'processing'> = {
  online: 'success',
  offline: 'default',
  lowpower: 'warning',
  fault: 'error',
  repair: 'error',
  idle: 'default',
  produce: 'processing',
  toDeliver: 'processing',
  transit: 'processing',
  deliver: 'processing',
  scrap: 'default',
};

export function statusColor(status: string): (typeof STATUS_COLORS)[DeviceStatus] {
  return STATUS_COLORS[status as DeviceStatus] ?? 'default';
}

export type SignalLevel = 0 | 1 | 2 | 3 | 4;

/**
 * Bars for a cellular signal in dBm: 4 from −75, 3 from −85, 2 from −95, 1 from −105, else 0;
 * 0 also when the device sent none.
 */
export function signalLevel(dbm: number | null | undefined): SignalLevel {
  if (typeof dbm !== 'number' || !Number.isFinite(dbm)) return 0;
  if (dbm >= -75) return 4;
  if (dbm >= -85) return 3;
  if (dbm >= -95) return 2;
  if (dbm >= -105) return 1;
  return 0;
}

/** A value with its unit, two decimals by truncation; '--' without the unit when missing. */
export function withUnit(value: number | null | undefined, unit: string): string {
  const text = truncateDecimal(value);
  return text === MISSING ? MISSING : `${text} ${unit}`;
}

/** "37.50°N, 116.17°E": two decimals by truncation, '--' without both coordinates. */
export function formatCoordinates(lng: number | null | undefined, lat: number | null | undefined): string {
  if (typeof lng !== 'number' || typeof lat !== 'number' || !Number.isFinite(lng) || !Number.isFinite(lat)) return MISSING;
  const ns = lat >= 0 ? 'N' : 'S';
  const ew = lng >= 0 ? 'E' : 'W';
  return `${truncateDecimal(Math.abs(lat))}°${ns}, ${truncateDecimal(Math.abs(lng))}°${ew}`;
}

/**
 * The search the list does on the server, for the map's devices: a name substring in any case,
 * or, for 5 or more digits, the end of the SN (SPEC §9: the last 5 digits of the SN).
 */
export function matchesNameOrSn(device: { name: string; sn: string }, query: string): boolean {
  const q = query.trim();
  if (q === '') return true;
  if (device.name.toLowerCase().includes(q.toLowerCase())) return true;
  return /^\d{5,}$/.test(q) && device.sn.endsWith(q);
}

/** The list's filters the map can apply itself: name or SN, status and type. */
export function filterMapDevices(devices: MapDevice[], filters: Pick<ListFilters, 'nameOrSn' | 'status' | 'typeId'>): MapDevice[] {
  return devices.filter(
    (device) =>
      matchesNameOrSn(device, filters.nameOrSn) &&
      (filters.status === undefined || device.status === filters.status) &&
      (filters.typeId === undefined || device.typeId === filters.typeId),
  );
}
