import { isPoiKind, type PoiKind } from '../types';

/** The desktop detail page of a device; the rain gauge page is addressed by its hash alone. */
export function poiDetailPath(device: { page: string; hashId: string; id: number }): string | null {
  if (!isPoiKind(device.page)) return null;
  const hash = encodeURIComponent(device.hashId);
  if (device.page === 'pluviometer') return `/apps/poi/pluviometer/${hash}`;
  return `/apps/poi/${device.page satisfies PoiKind}/${hash}/${device.id}`;
}
