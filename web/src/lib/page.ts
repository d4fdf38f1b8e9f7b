/** Lists are asked for one page at a time: `page` counts from 1, `size` rows per page. */
export interface PageQuery {
  page: number;
  size: number;
}

/** The list envelope: one page of rows and how many rows there are in all. */
export interface Page<T> {
  list: T[];
  total: number;
}

/** Go sends an empty list as null or leaves it out; the views read it as []. */
export function listOf<T>(value: T[] | null | undefined): T[] {
  return value ?? [];
}

/** A page as the views read it: its list never null, each row normalized by `row` when given. */
export function toPage<T>(answer: Page<T>): Page<T>;
export function toPage<T, U>(answer: Page<T>, row: (value: T) => U): Page<U>;
export function toPage<T, U>(answer: Page<T>, row?: (value: T) => U): Page<T | U> {
  const list = listOf(answer.list);
  return { list: row ? list.map(row) : list, total: answer.total };
}

/** The page sizes a list offers. */
export const PAGE_SIZES = [10, 20, 50];
