/** Data push and open-API applications (docs/api.md, "Data push" and "Open-API applications"). Times are unix milliseconds. */
import type { Page, PageQuery } from '@/lib/page';

/** Time windows of the channel figures and the push log (SPEC §9). */
export const PUSH_WINDOWS = ['15m', '1h', '3h', '1d', '3d', '1w'] as const;
export type PushWindow = (typeof PUSH_WINDOWS)[number];
export const DEFAULT_WINDOW: PushWindow = '1h';

export function isPushWindow(value: unknown): value is PushWindow {
  return (PUSH_WINDOWS as readonly unknown[]).includes(value);
}

/** A data-push channel with its figures over `window`. */
export interface Channel {
  id: number;
  name: string;
  url: string;
  enabled: boolean;
  deviceIds: number[];
  createTime: number;
  lastActivity: number | null;
  /** Median and 95th percentile response time of successful deliveries in the window, ms. */
  p50: number | null;
  p95: number | null;
  /** 0–1; null when nothing was attempted in the window. */
  successRate: number | null;
  attempted: number;
  failed: number;
  pending: number;
  window: string;
}

/** POST …/create answers the channel and its signing secret, the only time it is shown. */
export interface CreatedChannel extends Channel {
  secret: string;
}

export interface ChannelInput {
  name: string;
  url: string;
  deviceIds: number[];
}

/** Device categories, as the server names them. */
export const CATEGORIES = ['meteorology', 'soil', 'disaster', 'irrigation', 'ecology'] as const;
export type Category = (typeof CATEGORIES)[number];

/** A device that may be pushed (GET …/selector). */
export interface DeviceChoice {
  poiId: number;
  name: string;
  sn: string;
  typeId: number;
  typeName: string;
  category: string;
}

/** GET …/getConnectionData: what a receiver gets from one channel. */
export interface ConnectionData {
  id: number;
  url: string;
  method: string;
  headers: string[];
  signature: string;
  /** The waits before each retry, e.g. "1s", "2s" … "2m8s". */
  retries: string[];
  example: unknown;
}

export const PUSH_STATUSES = ['success', 'fail', 'pending'] as const;
export type PushStatus = (typeof PUSH_STATUSES)[number];

/** One report for one channel: its queue entry and log. */
export interface PushLogEntry {
  id: number;
  channelId: number;
  deviceId: number;
  collectTime: number;
  /** When the report was queued. */
  createTime: number;
  /** The last attempt; null before the first. */
  pushTime: number | null;
  status: PushStatus;
  attempts: number;
  /** The next attempt of a pending entry. */
  nextTime: number | null;
  duration: number | null;
  httpStatus?: number;
  error?: string;
  /** The body sent. */
  data: unknown;
}

export interface PushLogQuery extends PageQuery {
  channelId?: number;
  deviceId?: number;
  status?: PushStatus;
  window: PushWindow;
}

export interface PushLogPage extends Page<PushLogEntry> {
  window: string;
  /** The channel's figures, when the log is of one channel. */
  stats?: Channel;
}

/** Which devices an application reads: every device of the account, or the chosen ones. */
export type AppRange = 'all' | 'devices';

export interface OpenApp {
  id: number;
  name: string;
  appKey: string;
  pushUrl: string;
  range: AppRange;
  deviceIds: number[];
  published: boolean;
  createTime: number;
}

/** POST /openapi/application answers the app and its secret, the only time it is shown. */
export interface CreatedApp extends OpenApp {
  appSecret: string;
}

export interface AppInput {
  name: string;
  pushUrl: string;
  range: AppRange;
  deviceIds: number[];
}

/** The parts of an OpenAPI 3.1 document the reference shows. */
export interface OpenApiParameter {
  name?: string;
  in?: string;
  required?: boolean;
  description?: string;
  schema?: OpenApiSchema;
  $ref?: string;
}

export interface OpenApiSchema {
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  $ref?: string;
  allOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  example?: unknown;
  default?: unknown;
}

export interface OpenApiOperation {
  summary?: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { description?: string; required?: boolean; content?: Record<string, { schema?: OpenApiSchema; example?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: OpenApiSchema; example?: unknown }>; $ref?: string }>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  servers?: { url: string; description?: string }[];
  paths?: Record<string, Record<string, OpenApiOperation | OpenApiParameter[] | string | undefined>>;
  components?: {
    schemas?: Record<string, OpenApiSchema>;
    parameters?: Record<string, OpenApiParameter>;
    securitySchemes?: Record<string, { type?: string; name?: string; in?: string; description?: string; scheme?: string }>;
  };
}
