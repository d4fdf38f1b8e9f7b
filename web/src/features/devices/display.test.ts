import { describe, expect, it } from 'vitest';
import { filterMapDevices, formatCoordinates, isLowBattery, matchesNameOrSn, signalLevel, statusColor, withUnit } from './display';
import type { MapDevice } from './types';

describe('device values on screen', () => {
  it('warns under 3.2 V, not at it', () => {
    expect(isLowBattery(3.19)).toBe(true);
    expect(isLowBattery(3.2)).toBe(false);
    expect(isLowBattery(12.6)).toBe(false);
    expect(isLowBattery(null)).toBe(false);
  });

  it('shows two decimals by truncation, and -- when missing', () => {
    expect(withUnit(3.199, 'V')).toBe('3.19 V');
    expect(withUnit(-85, 'dBm')).toBe('-85 dBm');
    expect(withUnit(null, 'V')).toBe('--');
    expect(formatCoordinates(116.179999, 37.501296)).toBe('37.5°N, 116.17°E');
    expect(formatCoordinates(-58.38, -34.609)).toBe('34.6°S, 58.38°W');
    expect(formatCoordinates(null, 37.5)).toBe('--');
  });

  it('gives signal bars by dBm', () => {
    expect([-60, -75, -80, -85, -90, -100, -105, -110, null].map(signalLevel)).toEqual([4, 4, 3, 3, 2, 1, 1, 0, 0]);
  });

  it('colours statuses by what they mean', () => {
    expect(statusColor('online')).toBe('success');
    expect(statusColor('lowpower')).toBe('warning');
    expect(statusColor('fault')).toBe('error');
    expect(statusColor('offline')).toBe('default');
    expect(statusColor('transit')).toBe('processing');
    expect(statusColor('unheard-of')).toBe('default');
  });

  it('searches as the server does: a name substring in any case, or the last 5+ digits of the SN', () => {
    const device = { name: 'North Field 3', sn: 'DM02000003' };
    expect(matchesNameOrSn(device, '')).toBe(true);
    expect(matchesNameOrSn(device, 'field')).toBe(true);
    expect(matchesNameOrSn(device, '00003')).toBe(true);
    expect(matchesNameOrSn(device, '2000003')).toBe(true);
    expect(matchesNameOrSn(device, '0003')).toBe(false); // fewer than 5 digits
    expect(matchesNameOrSn(device, '00002')).toBe(false);
    expect(matchesNameOrSn(device, 'DM020')).toBe(false); // the SN matches at its end only
  });

  it('filters map devices by name or SN, status and type together', () => {
    const base: MapDevice = { id: 1, hashId: 'h', sn: 'DM01000001', name: 'A', typeId: 1, page: 'moisture', status: 'online', group: 'working', lng: 1, lat: 1, lastReportTime: null };
    const devices: MapDevice[] = [
      base,
      { ...base, id: 2, sn: 'DM05000002', name: 'B', typeId: 5, status: 'fault', group: 'fault' },
      { ...base, id: 3, sn: 'DM05000003', name: 'C', typeId: 5, status: 'online' },
    ];
    const ids = (filters: Parameters<typeof filterMapDevices>[1]) => filterMapDevices(devices, filters).map((d) => d.id);
    expect(ids({ nameOrSn: '' })).toEqual([1, 2, 3]);
    expect(ids({ nameOrSn: '', typeId: 5 })).toEqual([2, 3]);
    expect(ids({ nameOrSn: '', typeId: 5, status: 'online' })).toEqual([3]);
    expect(ids({ nameOrSn: '00002' })).toEqual([2]);
  });
});
