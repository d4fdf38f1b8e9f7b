import { describe, expect, it } from 'vitest';
import { filtersOf, parseEventsState, toSearchParams, withFilters } from './list-query';

describe('events page address', () => {
  it('defaults to the first page of the inbox', () => {
    expect(parseEventsState(new URLSearchParams())).toEqual({
      tab: 'messages',
      page: 1,
      size: 10,
      unread: false,
      deviceId: undefined,
      ruleId: undefined,
      level: undefined,
      kind: undefined,
      begin: undefined,
      end: undefined,
    });
  });

  it('reads the filters of the events tab and ignores nonsense', () => {
    const state = parseEventsState(
      new URLSearchParams('tab=events&page=3&size=20&deviceId=7&ruleId=x&level=alarm&kind=panic&begin=1700000000000&end=-4'),
    );
    expect(state).toMatchObject({ tab: 'events', page: 3, size: 20, deviceId: 7, level: 'alarm', begin: 1700000000000 });
    expect(state.ruleId).toBeUndefined();
    expect(state.kind).toBeUndefined();
    expect(state.end).toBeUndefined();
    expect(parseEventsState(new URLSearchParams('size=1000')).size).toBe(10);
  });

  it('writes back only what differs from the defaults, and the inbox keeps no event filters', () => {
    const events = parseEventsState(new URLSearchParams('tab=events&deviceId=7&kind=common'));
    expect(toSearchParams(events).toString()).toBe('tab=events&deviceId=7&kind=common');
    expect(toSearchParams({ ...events, tab: 'messages', unread: true }).toString()).toBe('tab=messages&unread=true');
  });

  it('replaces every filter at once and goes back to the first page', () => {
    const state = parseEventsState(new URLSearchParams('tab=events&page=4&deviceId=7&level=alarm'));
    const next = withFilters(state, { ruleId: 2 });
    expect(next.page).toBe(1);
    expect(filtersOf(next)).toEqual({ deviceId: undefined, ruleId: 2, level: undefined, kind: undefined, begin: undefined, end: undefined });
  });
});
