import { KINDS, LEVELS, type Kind, type Level, type Message } from '@/features/events/types';

/** The phone's messages list as its address keeps it. */
export interface MessageFilters {
  level?: Level;
  kind?: Kind;
  /** Unread messages only. */
  unread: boolean;
}

/** Rows per request as the list scrolls. */
export const MESSAGES_PAGE_SIZE = 20;

function oneOf<T extends string>(list: readonly T[], value: string | null): T | undefined {
  return list.find((item) => item === value);
}

export function parseMessageFilters(search: URLSearchParams | string): MessageFilters {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return {
    level: oneOf(LEVELS, params.get('level')),
    kind: oneOf(KINDS, params.get('kind')),
    unread: params.get('unread') === 'true',
  };
}

export function toMessageSearch(filters: MessageFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.level) params.set('level', filters.level);
  if (filters.kind) params.set('kind', filters.kind);
  if (filters.unread) params.set('unread', 'true');
  return params;
}

export function hasMessageFilters(filters: MessageFilters): boolean {
  return filters.level !== undefined || filters.kind !== undefined || filters.unread;
}

/** The GET /apis/event/messages parameters for the filters and a page. */
export function messageParams(filters: MessageFilters, page: number) {
  return {
    level: filters.level,
    kind: filters.kind,
    unread: filters.unread || undefined,
    page,
    size: MESSAGES_PAGE_SIZE,
  };
}

/**
 * The messages as shown after some were marked read here: the server's answer may still be on
 * its way, the row reads as read at once.
 */
export function withRead(messages: Message[], readIds: ReadonlySet<number>): Message[] {
  if (readIds.size === 0) return messages;
  return messages.map((message) => (!message.read && readIds.has(message.messageId) ? { ...message, read: true } : message));
}

/** The device of a message as the phone opens it, when the caller still has it. */
export interface MessageDevice {
  id: number;
  hashId: string;
  name: string;
}

export function deviceIndex(devices: readonly MessageDevice[]): Map<number, MessageDevice> {
  return new Map(devices.map((device) => [device.id, device]));
}

/** The tab bar's badge text: nothing at none, capped at 99+. */
export function badgeText(unread: number | undefined): string | undefined {
  if (!unread || unread <= 0) return undefined;
  return unread > 99 ? '99+' : String(unread);
}
