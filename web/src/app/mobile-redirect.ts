import { mobileRealtimePath, mobileRealtimeTypes, paths } from '@/config/paths';

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
  const detail = /^\/apps\/poi\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
  if (detail) {
    const [, type, hashId, deviceId] = detail;
    if ((mobileRealtimeTypes as readonly string[]).includes(type)) {
      return mobileRealtimePath(decodeURIComponent(hashId), decodeURIComponent(deviceId), type);
    }
  }
  return null;
}
