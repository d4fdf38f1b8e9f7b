import { describe, expect, it } from 'vitest';
import {
  clearFilters,
  DEFAULT_STATE,
  hasFilters,
  parseListState,
  toApiParams,
  toSearchParams,
  withFilters,
  type DeviceListState,
} from './list-query';

describe('device list state in the address', () => {
  it('reads an empty query as the defaults and writes the defaults as an empty query', () => {
    expect(parseListState('')).toEqual({ ...DEFAULT_STATE });
    expect(toSearchParams(DEFAULT_STATE).toString()).toBe('');
  });

  it('round-trips every field', () => {
    const state: DeviceListState = {
      view: 'map',
      nameOrSn: '00003',
      status: 'fault',
      typeId: 19,
      belong: 'shared',
      tagId: 12,
      sort: 'lastReport',
      order: 'desc',
      page: 3,
      size: 50,
      focus: 7,
    };
    const search = toSearchParams(state).toString();
    expect(search).toBe('view=map&nameOrSn=00003&status=fault&typeId=19&belong=shared&tagId=12&sort=lastReport&order=desc&page=3&size=50&focus=7');
    expect(parseListState(search)).toEqual(state);
  });

  it('drops what it does not know instead of sending it to the server', () => {
    expect(
      parseListState('view=globe&status=sleepy&typeId=99&belong=theirs&tagId=-1&sort=battery&order=down&page=0&size=7&focus=x'),
    ).toEqual({ ...DEFAULT_STATE });
    expect(parseListState('typeId=1.5&page=2e3&tagId=abc')).toEqual({ ...DEFAULT_STATE });
  });

  it('sorts ascending when the address names a column but no order', () => {
    expect(parseListState('sort=name')).toMatchObject({ sort: 'name', order: 'asc' });
    expect(parseListState('order=desc').order).toBeUndefined();
  });

  it('trims the search and leaves an empty one out', () => {
    expect(parseListState('nameOrSn=%20%20east%20').nameOrSn).toBe('east');
    expect(toSearchParams({ ...DEFAULT_STATE, nameOrSn: '   ' }).has('nameOrSn')).toBe(false);
  });

  it('goes back to page 1 when a filter changes, and keeps the view and sort', () => {
    const state: DeviceListState = { ...DEFAULT_STATE, view: 'map', sort: 'sn', order: 'desc', page: 4 };
    expect(withFilters(state, { status: 'online' })).toEqual({ ...state, status: 'online', page: 1 });
  });

  it('knows when filters are set and clears them all', () => {
    expect(hasFilters(DEFAULT_STATE)).toBe(false);
    for (const changed of [{ nameOrSn: 'a' }, { status: 'online' as const }, { typeId: 1 }, { belong: 'mine' as const }, { tagId: 2 }]) {
      const state = withFilters(DEFAULT_STATE, changed);
      expect(hasFilters(state), JSON.stringify(changed)).toBe(true);
      expect(hasFilters(clearFilters(state))).toBe(false);
    }
  });

  it('asks the server with its parameter names, leaving out what is not set', () => {
    expect(toApiParams(DEFAULT_STATE)).toEqual({
      nameOrSn: undefined,
      status: undefined,
      typeId: undefined,
      belong: undefined,
      tagId: undefined,
      sort: undefined,
      order: undefined,
      page: 1,
      size: 20,
    });
    expect(
      toApiParams({ ...DEFAULT_STATE, nameOrSn: 'east', status: 'offline', typeId: 5, belong: 'mine', tagId: 3, sort: 'name', order: 'desc', page: 2 }),
    ).toEqual({ nameOrSn: 'east', status: 'offline', typeId: 5, belong: 'mine', tagId: 3, sort: 'name', order: 'desc', page: 2, size: 20 });
  });
});
