import { vi } from 'vitest';
import { jsonResponse } from '@/testing/render';

type Handler = (url: URL, init?: RequestInit) => unknown;

/**
 * Serves the API from a table of "METHOD /path" handlers. A handler's value is the envelope's
 * data, or a whole Response; anything else answers 1404.
 */
export function serve(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const handler = handlers[`${init?.method ?? 'GET'} ${url.pathname}`];
    if (!handler) return jsonResponse({ code: 1404, message: 'The resource does not exist', data: null }, 404);
    const result = handler(url, init);
    return result instanceof Response ? result : jsonResponse({ code: 0, message: '', data: result });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The calls made with this method to this path, with their URL and parsed body. */
export function callsTo(fetchMock: ReturnType<typeof serve>, method: string, pathname: string) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://localhost'), init }))
    .filter(({ url, init }) => url.pathname === pathname && (init?.method ?? 'GET') === method)
    .map(({ url, init }) => ({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined }));
}

export const refusal = (code: number, message: string, status = 400) => jsonResponse({ code, message, data: null }, status);
