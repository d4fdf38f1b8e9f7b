import { describe, expect, it } from 'vitest';
import { nextPageNumber, rowsOf, totalOf } from './infinite-pages';

const page = (ids: number[], total: number) => ({ list: ids.map((id) => ({ id })), total });

describe('nextPageNumber', () => {
  it('asks for page 1 first, then the next while rows are missing', () => {
    expect(nextPageNumber([], 2)).toBe(1);
    expect(nextPageNumber([page([1, 2], 5)], 2)).toBe(2);
    expect(nextPageNumber([page([1, 2], 5), page([3, 4], 5)], 2)).toBe(3);
  });

  it('stops when every row is in, or a page comes back short', () => {
    expect(nextPageNumber([page([1, 2], 5), page([3, 4], 5), page([5], 5)], 2)).toBeUndefined();
    expect(nextPageNumber([page([1, 2], 4), page([3, 4], 4)], 2)).toBeUndefined();
    // Rows were deleted while scrolling: the total still says more, the short page says no.
    expect(nextPageNumber([page([1, 2], 9), page([3], 9)], 2)).toBeUndefined();
    expect(nextPageNumber([page([], 0)], 20)).toBeUndefined();
  });
});

describe('rowsOf', () => {
  it('joins the pages in order, a row that moved down a page kept once', () => {
    const rows = rowsOf([page([5, 4], 6), page([4, 3], 6), page([2, 1], 6)], (row) => row.id);
    expect(rows.map((row) => row.id)).toEqual([5, 4, 3, 2, 1]);
  });

  it('is empty before the first page', () => {
    expect(rowsOf(undefined, (row: { id: number }) => row.id)).toEqual([]);
  });
});

describe('totalOf', () => {
  it('reads the newest page', () => {
    expect(totalOf([page([1], 3), page([2], 4)])).toBe(4);
    expect(totalOf(undefined)).toBe(0);
  });
});
