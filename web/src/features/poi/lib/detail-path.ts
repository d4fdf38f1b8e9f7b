/** The desktop detail page of a device; the rain gauge page is addressed by its hash alone. */
export { deviceDetailPath as poiDetailPath } from '@/lib/detail-path';
