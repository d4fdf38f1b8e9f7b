import { describe, expect, it } from 'vitest';
import { listOf, toPage, type Page } from './page';

describe('toPage', () => {
  it('reads a null list as an empty one and keeps the total', () => {
    expect(toPage({ list: null, total: 0 } as unknown as Page<number>)).toEqual({ list: [], total: 0 });
  });

  it('normalizes each row', () => {
    expect(toPage({ list: [{ tags: null }], total: 7 } as unknown as Page<{ tags: string[] }>, (row) => ({ tags: listOf(row.tags) }))).toEqual({
      list: [{ tags: [] }],
      total: 7,
    });
  });
});
