import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/render';
import { api, ApiError, dispositionFilename, download, REQUEST_TIMEOUT_MS, setApiHandlers } from './api-client';
import { changeLanguage } from './i18n';

function mockFetch(response: Response | (() => Promise<Response>)) {
  const fetchMock = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) =>
    typeof response === 'function' ? response() : Promise.resolve(response),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('api client', () => {
  const onSessionExpired = vi.fn();
  const onFatal = vi.fn();
  let restoreHandlers: () => void;

  beforeEach(async () => {
    restoreHandlers = setApiHandlers({ onSessionExpired, onFatal });
    onSessionExpired.mockReset();
    onFatal.mockReset();
    await changeLanguage('en_US');
    window.history.replaceState(null, '', '/apps/devices?tag=3');
  });

  afterEach(async () => {
    restoreHandlers();
    vi.useRealTimers();
    await changeLanguage('zh_CN');
  });

  it('sends a relative /apis request with credentials, language and JSON body, and returns data', async () => {
    const fetchMock = mockFetch(jsonResponse({ code: 0, message: '', data: { name: 'Farm' } }));

    const data = await api.put<{ name: string }>('/account/name', { name: 'Farm' }, { params: { page: 2, skip: undefined } });

    expect(data).toEqual({ name: 'Farm' });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/apis/account/name?page=2');
    expect(init?.method).toBe('PUT');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe('{"name":"Farm"}');
    expect(init?.headers).toMatchObject({
      lang: 'en_US',
      'X-Requested-With': 'XMLHttpRequest',
      'Content-Type': 'application/json',
    });
  });

  it('uploads a file as the body itself, with no JSON content type', async () => {
    const fetchMock = mockFetch(jsonResponse({ code: 0, message: '', data: { id: 7 } }));
    const file = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });

    const data = await api.upload<{ id: number }>('/ailab/samples/upload', file, { params: { tag: 'moth' } });

    expect(data).toEqual({ id: 7 });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/apis/ailab/samples/upload?tag=moth');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(file);
    expect(init?.headers).not.toHaveProperty('Content-Type');
  });

  it('sends the language chosen last', async () => {
    const fetchMock = mockFetch(jsonResponse({ code: 0, message: '', data: null }));
    await changeLanguage('zh_TW');

    await api.get('/account/profile');

    expect(fetchMock.mock.calls[0][1]?.headers).toMatchObject({ lang: 'zh_TW' });
    expect(fetchMock.mock.calls[0][1]?.body).toBeUndefined();
  });

  it('leaves for the returnUrl on code 2', async () => {
    mockFetch(jsonResponse({ code: 2, message: 'Session expired', data: { returnUrl: '/login?redirect=%2Fapps%2Frules' } }, 401));

    const error = await failure(api.get('/account/profile'));

    expect(error.kind).toBe('session');
    expect(onSessionExpired).toHaveBeenCalledWith('/login?redirect=%2Fapps%2Frules');
  });


  it('adds the current page to a bare login returnUrl and ignores foreign ones', async () => {
    mockFetch(jsonResponse({ code: 2, message: '', data: { returnUrl: '/login' } }, 401));
    await failure(api.get('/account/profile'));
    expect(onSessionExpired).toHaveBeenLastCalledWith('/login?redirect=%2Fapps%2Fdevices%3Ftag%3D3');

    mockFetch(jsonResponse({ code: 2, message: '', data: { returnUrl: 'https://elsewhere.example/login' } }, 401));
    await failure(api.get('/account/profile'));
    expect(onSessionExpired).toHaveBeenLastCalledWith('/login?redirect=%2Fapps%2Fdevices%3Ftag%3D3');
  });

  it('shows the server message as fatal on code 3', async () => {
    mockFetch(jsonResponse({ code: 3, message: 'Database unavailable', data: null }, 500));

    const error = await failure(api.get('/account/profile'));

    expect(error.kind).toBe('fatal');
    expect(onFatal).toHaveBeenCalledWith('Database unavailable');
  });

  it('throws a business error with code, field and key', async () => {
    mockFetch(
      jsonResponse(
        {
          code: 1400,
          message: 'Name cannot be empty',
          data: null,
          error: { key: 'account.name.required', field: 'name' },
        },
        400,
      ),
    );

    const error = await failure(api.put('/account/name', { name: '' }));

    expect(error).toMatchObject({
      kind: 'normal',
      code: 1400,
      status: 400,
      message: 'Name cannot be empty',
      title: '',
      content: 'Name cannot be empty',
      field: 'name',
      key: 'account.name.required',
    });
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(onFatal).not.toHaveBeenCalled();
  });

  it('splits a JSON message into title and content', async () => {
    mockFetch(
      jsonResponse({ code: 1409, message: '{"title":"Link unavailable","content":"The link has expired"}', data: null }, 409),
    );

    const error = await failure(api.get('/grant/accept/1'));

    expect(error).toMatchObject({ kind: 'normal', title: 'Link unavailable', content: 'The link has expired' });
    expect(error.message).toBe('The link has expired');
  });

  it.each([
    [404, 'The resource does not exist'],
    [500, 'Internal server error, please try again later'],
    [502, 'The server is upgrading, ready soon'],
    [504, 'Request timed out, please reload'],
    [418, 'short and stout'],
  ])('explains HTTP %i without an envelope', async (status, message) => {
    mockFetch(new Response('short and stout', { status, headers: { 'Content-Type': 'text/plain' } }));

    const error = await failure(api.get('/account/profile'));

    expect(error).toMatchObject({ kind: 'normal', status, code: null, message });
  });

  it('reports an answer that is not an envelope', async () => {
    mockFetch(new Response('<!doctype html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));

    const error = await failure(api.get('/account/profile'));

    expect(error.kind).toBe('normal');
    expect(error.message).toBe('The server sent an answer that could not be read, please try again later');
  });

  it('reports a network failure', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));

    const error = await failure(api.get('/account/profile'));

    expect(error).toMatchObject({
      kind: 'network',
      status: null,
      message: 'Network error, please check your connection and retry',
    });
  });

  it('gives up after 300000 ms', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    vi.stubGlobal('fetch', fetchMock);

    const pending = failure(api.get('/account/profile'));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(fetchMock.mock.calls[0][1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    const error = await pending;
    expect(error).toMatchObject({ kind: 'network', message: 'Request timed out, please reload' });
  });

  it('passes a cancellation by the caller through unchanged', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_input: RequestInfo | URL, init?: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const controller = new AbortController();

    const pending = api.get('/account/profile', { signal: controller.signal });
    controller.abort();

    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('downloads a file with the language header and the name the server suggests', async () => {
    const fetchMock = mockFetch(
      new Response('PK-workbook', {
        status: 200,
        headers: {
          'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'Content-Disposition': `attachment; filename="devices.xlsx"; filename*=UTF-8''${encodeURIComponent('设备.xlsx')}`,
        },
      }),
    );

    const file = await download('/export/device/info');

    expect(await file.blob.text()).toBe('PK-workbook');
    expect(file.filename).toBe('设备.xlsx');
    expect(fetchMock.mock.calls[0][0]).toBe('/apis/export/device/info');
    expect(fetchMock.mock.calls[0][1]?.headers).toMatchObject({ lang: 'en_US' });
  });

  it('reads a failed download as the envelope it is', async () => {
    mockFetch(jsonResponse({ code: 1403, message: 'No permission to export!', data: null }, 403));
    expect(await failure(download('/export/device/info'))).toMatchObject({ kind: 'normal', code: 1403, message: 'No permission to export!' });

    mockFetch(jsonResponse({ code: 2, message: '', data: { returnUrl: '/login' } }, 401));
    expect(await failure(download('/export/device/info'))).toMatchObject({ kind: 'session' });
    expect(onSessionExpired).toHaveBeenCalled();
  });

  it('reads file names from Content-Disposition', () => {
    expect(dispositionFilename('attachment; filename="a.xlsx"')).toBe('a.xlsx');
    expect(dispositionFilename("attachment; filename=\"a.xlsx\"; filename*=UTF-8''b%20c.xlsx")).toBe('b c.xlsx');
    expect(dispositionFilename("attachment; filename*=UTF-8''%E0%A4%A")).toBeNull();
    expect(dispositionFilename(null)).toBeNull();
  });
});
