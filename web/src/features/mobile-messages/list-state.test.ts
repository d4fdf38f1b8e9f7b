import { describe, expect, it } from 'vitest';
import type { Message } from '@/features/events/types';
import {
  badgeText,
  deviceIndex,
  hasMessageFilters,
  messageParams,
  MESSAGES_PAGE_SIZE,
  parseMessageFilters,
  toMessageSearch,
  withRead,
} from './list-state';

function message(messageId: number, read: boolean): Message {
  return {
    messageId,
    ruleId: 1,
    ruleDeviceId: 9,
    sn: 'SN9',
    ruleName: 'Dry soil',
    typeId: 1,
    deviceType: 'Soil',
    time: 0,
    description: '',
    kind: 'warning',
    level: 'alarm',
    read,
    values: [],
  };
}

describe('message filters', () => {
  it('read level, kind and unread from the address and write them back', () => {
    const filters = parseMessageFilters('level=alarm&kind=common&unread=true');
    expect(filters).toEqual({ level: 'alarm', kind: 'common', unread: true });
    expect(toMessageSearch(filters).toString()).toBe('level=alarm&kind=common&unread=true');
    expect(parseMessageFilters('level=loud&kind=x&unread=1')).toEqual({ level: undefined, kind: undefined, unread: false });
    expect(toMessageSearch({ unread: false }).toString()).toBe('');
  });

  it('knows when a filter is on', () => {
    expect(hasMessageFilters({ unread: false })).toBe(false);
    expect(hasMessageFilters({ unread: true })).toBe(true);
    expect(hasMessageFilters({ unread: false, kind: 'warning' })).toBe(true);
  });

  it('asks the server for one page with only the filters set', () => {
    expect(messageParams({ unread: false }, 3)).toEqual({ level: undefined, kind: undefined, unread: undefined, page: 3, size: MESSAGES_PAGE_SIZE });
    expect(messageParams({ level: 'normal', kind: 'warning', unread: true }, 1)).toMatchObject({ level: 'normal', kind: 'warning', unread: true });
  });
});

describe('withRead', () => {
  it('shows messages marked here as read before the server answers', () => {
    const list = [message(1, false), message(2, false), message(3, true)];
    expect(withRead(list, new Set([2, 3])).map((m) => m.read)).toEqual([false, true, true]);
    expect(withRead(list, new Set())).toBe(list);
  });
});

describe('deviceIndex', () => {
  it('finds a message device by id', () => {
    const index = deviceIndex([{ id: 9, hashId: 'h9', name: 'North' }]);
    expect(index.get(9)?.hashId).toBe('h9');
    expect(index.get(10)).toBeUndefined();
  });
});

describe('badgeText', () => {
  it('says nothing at none and caps at 99+', () => {
    expect(badgeText(undefined)).toBeUndefined();
    expect(badgeText(0)).toBeUndefined();
    expect(badgeText(7)).toBe('7');
    expect(badgeText(100)).toBe('99+');
  });
});
