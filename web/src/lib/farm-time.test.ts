import { describe, expect, it } from 'vitest';
import { chooseDays } from '@/features/poi/components/range-toolbar';
import { recentAmounts } from '@/features/poi/lib/amounts';
import { timeSeriesOption } from '@/components/charts/chart-options';
import { farmTime, farmZoneLabel, fromPicker, offsetLabel, setFarmZone, toPicker, wallClock } from './farm-time';
import { formatDateTime, formatReportTime } from './format';
import { bucketStart, DAY, HOUR } from './time-range';

// Noon on 20 November 2026 in Shanghai is 04:00 UTC; in São Paulo (UTC−3) it is 15:00 UTC.
const NOON_SHANGHAI = Date.UTC(2026, 10, 20, 4, 0, 0);

// The browser running these tests may be in any zone: the farm's, never the browser's, must show.
describe('device times on the farm clock', () => {
  it('formats an instant in the farm zone whatever the browser zone', () => {
    setFarmZone('Asia/Shanghai');
    expect(formatDateTime(NOON_SHANGHAI)).toBe('2026-11-20 12:00:00');
    setFarmZone('America/Sao_Paulo');
    expect(formatDateTime(NOON_SHANGHAI)).toBe('2026-11-20 01:00:00');
  });

  it('reads "today" on the farm calendar', () => {
    setFarmZone('Asia/Shanghai');
    // 23:30 UTC on the 19th is 07:30 on the 20th in Shanghai: the same farm day as noon.
    const early = Date.UTC(2026, 10, 19, 23, 30);
    expect(formatReportTime(early, NOON_SHANGHAI)).toBe('07:30');
  });

  it('names the zone with its offset', () => {
    setFarmZone('Asia/Shanghai');
    expect(farmZoneLabel(NOON_SHANGHAI)).toBe('Asia/Shanghai (UTC+08:00)');
    expect(offsetLabel(-210)).toBe('UTC-03:30');
  });

  it('keeps the browser zone for an unknown name', () => {
    setFarmZone('Local');
    expect(farmTime(NOON_SHANGHAI).valueOf()).toBe(NOON_SHANGHAI);
    expect(farmZoneLabel()).toContain(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('moves pickers between the farm calendar and instants', () => {
    setFarmZone('Asia/Shanghai');
    const picked = toPicker(NOON_SHANGHAI);
    expect(picked.format('YYYY-MM-DD HH:mm')).toBe('2026-11-20 12:00');
    expect(fromPicker(picked).valueOf()).toBe(NOON_SHANGHAI);
  });

  it('runs a picked period from the farm midnight of the first day to the end of the last', () => {
    setFarmZone('Asia/Shanghai');
    const day = toPicker(NOON_SHANGHAI);
    const choice = chooseDays(day, day, Date.UTC(2027, 0, 1));
    expect(choice.range).toEqual({ begin: Date.UTC(2026, 10, 19, 16), end: Date.UTC(2026, 10, 20, 16) });
  });

  it('buckets hours and days on the farm clock', () => {
    setFarmZone('Asia/Shanghai');
    expect(bucketStart(NOON_SHANGHAI + 5 * 60_000, DAY)).toBe(Date.UTC(2026, 10, 19, 16));
    setFarmZone('Asia/Kolkata'); // UTC+05:30: hours start at :30 UTC
    expect(bucketStart(Date.UTC(2026, 10, 20, 4, 10), HOUR)).toBe(Date.UTC(2026, 10, 20, 3, 30));
  });

  it("counts today's rain from the farm's midnight", () => {
    setFarmZone('Asia/Shanghai');
    // 5 mm at 23:00 on the 19th in Shanghai, 2 mm at 04:00 on the 20th (20:00 UTC on the 19th), 7 mm at noon.
    const series = { t: [Date.UTC(2026, 10, 19, 15), Date.UTC(2026, 10, 19, 20), NOON_SHANGHAI], v: [5, 2, 7] };
    expect(recentAmounts(series, NOON_SHANGHAI).today).toBe(9);
  });

  it('draws chart axes in UTC over instants moved to the farm clock', () => {
    setFarmZone('Asia/Shanghai');
    expect(wallClock(NOON_SHANGHAI)).toBe(Date.UTC(2026, 10, 20, 12));
    const option = timeSeriesOption({
      series: [{ key: 'a', name: 'Air temperature', kind: 'line', t: [NOON_SHANGHAI], v: [18] }],
      unit: '°C',
      precision: 1,
      range: { begin: NOON_SHANGHAI - HOUR, end: NOON_SHANGHAI },
      dark: false,
    }) as { useUTC: boolean; series: { data: number[][] }[]; xAxis: { min: number }; tooltip: { formatter: (p: unknown) => string } };
    expect(option.useUTC).toBe(true);
    expect(option.series[0].data[0][0]).toBe(Date.UTC(2026, 10, 20, 12));
    expect(option.xAxis.min).toBe(Date.UTC(2026, 10, 20, 11));
    const head = option.tooltip.formatter([{ axisValue: option.series[0].data[0][0], value: option.series[0].data[0], seriesName: 'Air temperature' }]);
    expect(head.startsWith('2026-11-20 12:00')).toBe(true);
  });
});
