import { mobileRealtimePath, mobileRealtimeTypes, paths } from '@/config/paths';
import { deviceDetailPath, isDetailPage } from '@/lib/detail-path';

function within(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

/**
 * The phone screen that replaces a desktop path, or null when the desktop screen is kept.
 * Device detail pages go to the device's real-time tab.
 */
export function mobileEquivalent(pathname: string): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === paths.home || within(path, paths.devices)) return paths.mobile.devices;
  if (within(path, paths.events)) return paths.mobile.messages;
  if (within(path, paths.account)) return paths.mobile.account;
  if (within(path, paths.sharing)) return paths.mobile.authorization;
  // The rain gauge's page is addressed by its hash alone: the phone screen finds its id.
  const rainGauge = /^\/apps\/poi\/pluviometer\/([^/]+)$/.exec(path);
  if (rainGauge) return mobileRealtimePath(decodeURIComponent(rainGauge[1]), '0', 'pluviometer');
  if (within(path, paths.moistureReport)) return paths.mobile.moistureReport;
  if (within(path, paths.advice)) return paths.mobile.advice;
  const detail = /^\/apps\/poi\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
  if (detail) {
    const [, type, hashId, deviceId] = detail;
    if ((mobileRealtimeTypes as readonly string[]).includes(type)) {
      return mobileRealtimePath(decodeURIComponent(hashId), decodeURIComponent(deviceId), type);
    }
  }
  return null;
}

/** A phone device screen whose desktop page depends on the device's type, found by asking the server. */
export interface DeviceToResolve {
  hashId: string;
  deviceId: string;
}

/**
 * The desktop screen that replaces a phone path when the app is not in mobile mode: a path, a
 * device whose detail page must be looked up, or null when the path is not a phone screen.
 */
export function desktopEquivalent(pathname: string): string | DeviceToResolve | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (!within(path, paths.mobile.root)) return null;
  const accept = /^\/apps\/mobile\/(authorization|transfer)\/accept\/([^/]+)$/.exec(path);
  if (accept) {
    const kind = accept[1] === 'transfer' ? 'transfer' : 'grant';
    return `/apps/authoried/${kind}?credential=${encodeURIComponent(decodeURIComponent(accept[2]))}`;
  }
  if (within(path, paths.mobile.authorization)) return paths.sharing;
  if (within(path, paths.mobile.moistureReport)) return paths.moistureReport;
  if (within(path, paths.mobile.advice)) return paths.advice;
  if (within(path, paths.mobile.messages)) return paths.events;
  if (within(path, paths.mobile.account) || within(path, paths.mobile.profile)) return paths.account;
  const device = /^\/apps\/mobile\/poi\/([^/]+)\/([^/]+)(?:\/(.*))?$/.exec(path);
  if (device) {
    const hashId = decodeURIComponent(device[1]);
    const deviceId = decodeURIComponent(device[2]);
    const type = /^realtime\/([^/]+)$/.exec(device[3] ?? '')?.[1];
    const known = type && isDetailPage(type) ? deviceDetailPath({ page: type, hashId, id: deviceId }) : null;
    return known ?? { hashId, deviceId };
  }
  return paths.devices;
}

/** The phone page of a share or transfer link (/apps/authoried/{grant|transfer}?credential=). */
export function mobileLinkEquivalent(pathname: string, search: string): string | null {
  const link = /^\/apps\/authoried\/(grant|transfer)\/?$/.exec(pathname);
  const credential = new URLSearchParams(search).get('credential')?.trim();
  if (!link || !credential) return null;
  const base = link[1] === 'transfer' ? paths.mobile.acceptTransfer : paths.mobile.acceptGrant;
  return base.replace(':credential', encodeURIComponent(credential));
}
