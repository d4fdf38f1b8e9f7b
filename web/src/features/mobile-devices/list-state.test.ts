import { describe, expect, it } from 'vitest';
import { activeFilterCount, clearMobileFilters, hasMobileFilters, parseMobileState, toMobileSearch } from './list-state';

describe('parseMobileState', () => {
  it('reads the view, the search and the three filters', () => {
    expect(parseMobileState('view=map&nameOrSn=%2012345%20&status=offline&typeId=7&tagId=3')).toEqual({
      view: 'map',
      nameOrSn: '12345',
      status: 'offline',
      typeId: 7,
      tagId: 3,
    });
  });

  it('drops what it does not know', () => {
    expect(parseMobileState('view=globe&status=asleep&typeId=999&tagId=-1&page=4')).toEqual({
      view: 'list',
      nameOrSn: '',
      status: undefined,
      typeId: undefined,
      tagId: undefined,
    });
  });
});

describe('toMobileSearch', () => {
  it('writes only what differs from the defaults and reads back the same', () => {
    expect(toMobileSearch({ view: 'list', nameOrSn: '  ' }).toString()).toBe('');
    const state = { view: 'map' as const, nameOrSn: 'East', status: 'online' as const, typeId: 5, tagId: 2 };
    const search = toMobileSearch(state);
    expect(search.toString()).toBe('view=map&nameOrSn=East&status=online&typeId=5&tagId=2');
    expect(parseMobileState(search)).toEqual(state);
  });
});

describe('filters', () => {
  it('counts the drop-down filters and knows when any filter is on', () => {
    expect(activeFilterCount({ view: 'list', nameOrSn: 'x' })).toBe(0);
    expect(activeFilterCount({ view: 'list', nameOrSn: '', status: 'fault', tagId: 1 })).toBe(2);
    expect(hasMobileFilters({ view: 'list', nameOrSn: '' })).toBe(false);
    expect(hasMobileFilters({ view: 'list', nameOrSn: '12345' })).toBe(true);
    expect(hasMobileFilters({ view: 'map', nameOrSn: '', typeId: 3 })).toBe(true);
  });

  it('clears every filter and keeps the view', () => {
    expect(clearMobileFilters({ view: 'map', nameOrSn: 'a', status: 'online', typeId: 1, tagId: 2 })).toEqual({ view: 'map', nameOrSn: '' });
  });
});
