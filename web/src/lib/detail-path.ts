/** Detail page kinds, as the device's `page` field names them (SPEC §2). */
export const DETAIL_PAGES = [
  'liquidometer',
  'ibiosense',
  'tianqi',
  'pluviometer',
  'moisture',
  'zhi-shang',
  'yun-yao',
  'dcr004',
  'shan-jing',
] as const;
export type DetailPage = (typeof DETAIL_PAGES)[number];

export function isDetailPage(value: unknown): value is DetailPage {
  return typeof value === 'string' && (DETAIL_PAGES as readonly string[]).includes(value);
}

/** What a device needs to be opened: its page kind, hash id and id. */
export interface DetailTarget {
  page: string;
  hashId: string;
  id: number | string;
}

/**
 * The desktop detail page of a device: /apps/poi/{page}/{hashId}/{id}, except the rain gauge,
 * whose page is /apps/poi/pluviometer/{hashId}. Null when the device has no detail page.
 */
export function deviceDetailPath({ page, hashId, id }: DetailTarget): string | null {
  if (!isDetailPage(page) || !hashId) return null;
  const hash = encodeURIComponent(hashId);
  if (page === 'pluviometer') return `/apps/poi/pluviometer/${hash}`;
  return `/apps/poi/${page}/${hash}/${encodeURIComponent(String(id))}`;
}

/** A device's phone screen: its real-time page, which shows the figures of its type. */
export function mobileDevicePath({ hashId, id }: { hashId: string; id: number | string }): string {
  return `/apps/mobile/poi/${encodeURIComponent(hashId)}/${encodeURIComponent(String(id))}/realtime`;
}
