/** Alert events and messages as /apis/event/* carry them (SPEC §3 Alert event/message). */
import { listOf } from '@/lib/page';

export const KINDS = ['warning', 'common'] as const;
/** warning: the rule's condition began; common: it ended (back to normal). */
export type Kind = (typeof KINDS)[number];

export const LEVELS = ['normal', 'alarm'] as const;
export type Level = (typeof LEVELS)[number];

/** One expression's value when the event was raised. */
export interface MessageValue {
  expressionId: number;
  param: string;
  nodes?: number[];
  deviceId?: number;
  value: number;
}

export interface Message {
  messageId: number;
  ruleId: number;
  ruleDeviceId: number;
  sn: string;
  ruleName: string;
  typeId: number;
  deviceType: string;
  /** Unix ms. */
  time: number;
  /** Localized by the server. */
  description: string;
  kind: Kind;
  level: Level;
  read: boolean;
  values: MessageValue[];
}

/** The events list's filters; undefined means any. Times are unix ms. */
export interface EventFilters {
  deviceId?: number;
  ruleId?: number;
  level?: Level;
  kind?: Kind;
  begin?: number;
  end?: number;
}

/** A rule as the filters offer it. */
export interface RuleOption {
  id: number;
  name: string;
  typeId: number;
  deviceIds: number[];
}

/** A device as the filters offer it. */
export interface DeviceOption {
  id: number;
  sn: string;
  name: string;
  typeId: number;
}

/** A message as the views read it: its values never null. */
export function normalizeMessage(message: Message): Message {
  return { ...message, values: listOf(message.values) };
}
