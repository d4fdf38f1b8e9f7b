/**
 * Device times are shown in the farm's time zone — the console's `--timezone`, which also decides
 * where a day begins for daily history — never the browser's: a photo taken at noon on the farm
 * reads 12:00 wherever it is looked at. The zone arrives with the account (GET /account/session);
 * until then (the login page) the browser's own zone is used.
 */
import dayjs, { type ConfigType, type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

let zone: string | undefined;

/** Sets the farm's zone (an IANA name); an unknown or empty name leaves the browser's zone. */
export function setFarmZone(name: string | null | undefined): void {
  if (!name) {
    zone = undefined;
    return;
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    zone = name;
  } catch {
    zone = undefined;
  }
}

/** The farm's IANA zone, or the browser's when none is set. */
export function farmZone(): string {
  return zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** An instant (ms, Date or Dayjs; now when omitted) as a date-time on the farm's clock. */
export function farmTime(time?: ConfigType): Dayjs {
  const at = time === undefined ? dayjs() : dayjs(time);
  return zone ? at.tz(zone) : at;
}

/** The instant at which a farm-calendar date and time ("2026-11-20" or "2026-11-20 08:00") falls. */
export function farmDate(text: string): Dayjs {
  return zone ? dayjs.tz(text, zone) : dayjs(text);
}

/** Minutes the farm's clock is ahead of UTC at `time`. */
export function farmOffsetMinutes(time: number): number {
  return farmTime(time).utcOffset();
}

/** e.g. "UTC+08:00", "UTC-03:30". */
export function offsetLabel(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The zone as a person reads it: "Asia/Shanghai (UTC+08:00)". */
export function farmZoneLabel(now: number = Date.now()): string {
  return `${farmZone()} (${offsetLabel(farmOffsetMinutes(now))})`;
}

/**
 * Charts draw time axes in UTC (ECharts `useUTC`); an instant moved by the farm's offset then shows
 * the farm's wall clock on ticks, labels and tooltips, with ticks on the farm's midnights and hours.
 */
export function wallClock(time: number): number {
  return time + farmOffsetMinutes(time) * 60_000;
}

/**
 * Date pickers work on the browser's clock: the picker shows the farm's calendar date and time of
 * an instant as a browser-local Dayjs …
 */
export function toPicker(time: number): Dayjs {
  return dayjs(farmTime(time).format('YYYY-MM-DD HH:mm:ss'));
}

/** … and a picked date and time becomes the instant at that wall-clock reading on the farm. */
export function fromPicker(picked: Dayjs): Dayjs {
  return farmDate(picked.format('YYYY-MM-DD HH:mm:ss'));
}

/** Today on the farm, for a picker (e.g. to disable dates after it). */
export function pickerToday(): Dayjs {
  return toPicker(Date.now());
}
