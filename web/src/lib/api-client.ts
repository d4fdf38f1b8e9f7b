import { paths } from '@/config/paths';
import { currentLanguage, i18n } from './i18n';

export const API_BASE = '/apis';
export const REQUEST_TIMEOUT_MS = 300_000;

/** Envelope codes with a meaning of their own; any other non-zero code is a business error. */
export const CODE_OK = 0;
export const CODE_SESSION_EXPIRED = 2;
export const CODE_FATAL = 3;

export type ApiErrorKind = 'network' | 'normal' | 'fatal' | 'session';

interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  code?: number | null;
  status?: number | null;
  title?: string;
  content?: string;
  field?: string;
  key?: string;
  data?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** Envelope code; null when the server sent no envelope. */
  readonly code: number | null;
  /** HTTP status; null when no response arrived. */
  readonly status: number | null;
  readonly title: string;
  readonly content: string;
  /** The request field the server blamed, when it named one. */
  readonly field?: string;
  /** The server's i18n key for the error, when it sent one. */
  readonly key?: string;
  /** What the envelope carried besides the message (the portal's state), if anything. */
  readonly data?: unknown;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.code = init.code ?? null;
    this.status = init.status ?? null;
    this.title = init.title ?? '';
    this.content = init.content ?? init.message;
    this.field = init.field;
    this.key = init.key;
    this.data = init.data;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

interface Envelope {
  code: number;
  message?: string;
  data?: unknown;
  error?: { key?: string; field?: string } | null;
}

interface ApiHandlers {
  /** Leaves the page for the login screen the server named. */
  onSessionExpired: (returnUrl: string) => void;
  /** Shows an error the user cannot recover from by retrying. */
  onFatal: (message: string) => void;
}

const defaultHandlers: ApiHandlers = {
  onSessionExpired: (returnUrl) => window.location.replace(returnUrl),
  onFatal: (message) => console.error(message),
};

let handlers: ApiHandlers = { ...defaultHandlers };

/** Installs UI reactions for session expiry and fatal errors; returns a function that undoes it. */
export function setApiHandlers(next: Partial<ApiHandlers>): () => void {
  const previous = handlers;
  handlers = { ...handlers, ...next };
  return () => {
    handlers = previous;
  };
}

type ParamValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, ParamValue | ParamValue[]>;

export interface RequestOptions {
  params?: QueryParams;
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Headers of this call besides the app's own (a portal link's token). */
  headers?: Record<string, string>;
}

export function buildUrl(path: string, params?: QueryParams): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(name, String(item));
    }
  }
  const query = search.toString();
  return query ? `${url}?${query}` : url;
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as Envelope).code === 'number';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A server message may itself be JSON such as {"title": …, "content": …}. */
function splitMessage(message: string): { title: string; content: string; text: string } {
  const parsed = parseJson(message);
  if (typeof parsed === 'object' && parsed !== null) {
    const { title, content } = parsed as { title?: unknown; content?: unknown };
    if (typeof title === 'string' || typeof content === 'string') {
      const t = typeof title === 'string' ? title : '';
      const c = typeof content === 'string' ? content : '';
      return { title: t, content: c, text: c || t };
    }
  }
  return { title: '', content: message, text: message };
}

function isSameOriginPath(url: string): boolean {
  if (!url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return false;
  try {
    return new URL(url, window.location.origin).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * Where to send the browser when the session is gone: the server's returnUrl when it is on this
 * site, else the login page. A bare login URL gets the current page as its redirect, so the user
 * comes back here after logging in.
 */
function sessionTarget(returnUrl: unknown): string {
  const target = typeof returnUrl === 'string' && isSameOriginPath(returnUrl) ? returnUrl : paths.login;
  const url = new URL(target, window.location.origin);
  const { pathname, search } = window.location;
  if (url.pathname === paths.login && !url.searchParams.has('redirect') && pathname !== paths.login) {
    url.searchParams.set('redirect', `${pathname}${search}`);
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

function fromEnvelope(envelope: Envelope, status: number): unknown {
  const message = envelope.message ?? '';
  switch (envelope.code) {
    case CODE_OK:
      return envelope.data;
    case CODE_SESSION_EXPIRED: {
      const returnUrl = (envelope.data as { returnUrl?: unknown } | null | undefined)?.returnUrl;
      handlers.onSessionExpired(sessionTarget(returnUrl));
      throw new ApiError({ kind: 'session', code: envelope.code, status, message: message || i18n.t('errors:pleaseLogIn') });
    }
    case CODE_FATAL: {
      const text = message || i18n.t('errors:internal');
      handlers.onFatal(text);
      throw new ApiError({ kind: 'fatal', code: envelope.code, status, message: text });
    }
    default: {
      const { title, content, text } = splitMessage(message);
      throw new ApiError({
        kind: 'normal',
        code: envelope.code,
        status,
        message: text,
        title,
        content,
        field: envelope.error?.field || undefined,
        key: envelope.error?.key || undefined,
        data: envelope.data ?? undefined,
      });
    }
  }
}

function httpErrorMessage(status: number, text: string, statusText: string): string {
  switch (status) {
    case 404:
      return i18n.t('errors:notFound');
    case 500:
      return i18n.t('errors:internal');
    case 502:
      return i18n.t('errors:upgrading');
    case 504:
      return i18n.t('errors:timeout');
    default:
      return text.trim() || statusText || `HTTP ${status}`;
  }
}

/** Sends a call with the app's headers, credentials and timeout, and reads the whole body. */
async function send<K extends 'text' | 'blob'>(
  method: string,
  path: string,
  options: RequestOptions,
  read: K,
): Promise<{ response: Response; body: K extends 'text' ? string : Blob }> {
  const { params, body, signal, timeoutMs = REQUEST_TIMEOUT_MS, headers: extra } = options;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const abortFromCaller = () => controller.abort(signal?.reason);
  if (signal?.aborted) abortFromCaller();
  else signal?.addEventListener('abort', abortFromCaller, { once: true });

  const headers: Record<string, string> = {
    Accept: 'application/json',
    lang: currentLanguage(),
    'X-Requested-With': 'XMLHttpRequest',
    ...extra,
  };
  // A form (files) goes as multipart/form-data, its boundary set by the browser; a file alone goes
  // as it is (the server reads what it is from its bytes); anything else as JSON.
  const form = typeof FormData !== 'undefined' && body instanceof FormData;
  const raw = typeof Blob !== 'undefined' && body instanceof Blob;
  if (body !== undefined && !form && !raw) headers['Content-Type'] = 'application/json';

  try {
    const response = await fetch(buildUrl(path, params), {
      method,
      headers,
      body: body === undefined ? undefined : form || raw ? (body as FormData | Blob) : JSON.stringify(body),
      credentials: 'include',
      signal: controller.signal,
    });
    const content = read === 'blob' ? await response.blob() : await response.text();
    return { response, body: content as K extends 'text' ? string : Blob };
  } catch (error) {
    // A cancellation by the caller (e.g. a query that is no longer needed) is not an error to show.
    if (signal?.aborted && !timedOut) throw error;
    throw new ApiError({ kind: 'network', message: i18n.t(timedOut ? 'errors:timeout' : 'errors:network') });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abortFromCaller);
  }
}

/** Unwraps an answer's envelope, or turns a bare HTTP failure into an ApiError. */
function fromResponse(response: Response, text: string): unknown {
  const payload = text ? parseJson(text) : undefined;
  if (isEnvelope(payload)) return fromEnvelope(payload, response.status);
  if (!response.ok) {
    throw new ApiError({
      kind: 'normal',
      status: response.status,
      message: httpErrorMessage(response.status, text, response.statusText),
    });
  }
  throw new ApiError({ kind: 'normal', status: response.status, message: i18n.t('errors:badResponse') });
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const { response, body } = await send(method, path, options, 'text');
  return fromResponse(response, body) as T;
}

export interface FileDownload {
  blob: Blob;
  /** The name the server suggested, if any. */
  filename: string | null;
}

/** The file name of a Content-Disposition header, preferring the UTF-8 form. */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : null;
}

/**
 * GETs a file (an export). The server answers an envelope instead when the call fails; that is
 * handled like any other call's, so session expiry and business errors behave the same.
 */
export async function download(path: string, options: RequestOptions & { method?: 'GET' | 'POST' } = {}): Promise<FileDownload> {
  const { method = 'GET', ...rest } = options;
  const { response, body } = await send(method, path, rest, 'blob');
  const type = response.headers.get('Content-Type') ?? '';
  if (!response.ok || type.includes('application/json')) {
    fromResponse(response, await body.text());
    throw new ApiError({ kind: 'normal', status: response.status, message: i18n.t('errors:badResponse') });
  }
  return { blob: body, filename: dispositionFilename(response.headers.get('Content-Disposition')) };
}

/**
 * POSTs a call answered as Server-Sent Events and returns the stream as it opens. A call refused
 * before its stream (bad input, a session gone) fails as any other call does; no timeout here:
 * the server bounds how long the stream may take.
 */
export async function openEventStream(path: string, body: unknown, { signal }: { signal?: AbortSignal } = {}): Promise<ReadableStream<Uint8Array>> {
  let response: Response;
  try {
    response = await fetch(buildUrl(path), {
      method: 'POST',
      headers: { Accept: 'text/event-stream', 'Content-Type': 'application/json', lang: currentLanguage(), 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify(body),
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError({ kind: 'network', message: i18n.t('errors:network') });
  }
  if (response.ok && response.body && (response.headers.get('Content-Type') ?? '').startsWith('text/event-stream')) return response.body;
  fromResponse(response, await response.text());
  throw new ApiError({ kind: 'normal', status: response.status, message: i18n.t('errors:badResponse') });
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  /** POSTs a file as the request body, its bytes unchanged. */
  upload: <T>(path: string, file: Blob, options?: Omit<RequestOptions, 'body'>) => request<T>('POST', path, { ...options, body: file }),
};

/** The text to show for a failed call: server message, or the generic one for anything else. */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  return i18n.t('errors:network');
}
