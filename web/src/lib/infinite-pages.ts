import type { Page } from './page';

/**
 * The next page to ask for after these pages, or undefined when every row is in: a page comes
 * back shorter than asked, or the rows so far reach the total.
 */
export function nextPageNumber<T>(pages: readonly Page<T>[], size: number): number | undefined {
  const last = pages.at(-1);
  if (!last) return 1;
  const loaded = pages.reduce((count, page) => count + page.list.length, 0);
  if (last.list.length < size || loaded >= last.total) return undefined;
  return pages.length + 1;
}

/**
 * The rows of every page in order. A row that moved down a page between two requests (a new
 * one came in on top) would be listed twice: only its first place is kept.
 */
export function rowsOf<T, K>(pages: readonly Page<T>[] | undefined, key: (row: T) => K): T[] {
  const seen = new Set<K>();
  const rows: T[] = [];
  for (const page of pages ?? []) {
    for (const row of page.list) {
      const id = key(row);
      if (seen.has(id)) continue;
      seen.add(id);
      rows.push(row);
    }
  }
  return rows;
}

/** The total the newest page reports (rows come and go while a list is scrolled). */
export function totalOf<T>(pages: readonly Page<T>[] | undefined): number {
  return pages?.at(-1)?.total ?? 0;
}
