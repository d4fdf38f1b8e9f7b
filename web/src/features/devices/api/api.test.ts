import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/render';
import { getDevices } from './get-devices';
import { FALLBACK_MAP_CONFIG, getMapConfig } from './get-map-config';
import { renameDevice } from './rename-device';

function serve(handler: (url: string, init?: RequestInit) => Response) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => handler(String(input), init));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const ok = (data: unknown) => jsonResponse({ code: 0, message: '', data });

describe('device calls', () => {
  it('lists devices with the filters, sort and page as query parameters', async () => {
    const fetchMock = serve(() => ok({ list: [], total: 0 }));
    await getDevices({ nameOrSn: '00003', status: 'online', typeId: 5, belong: 'all', tagId: 2, sort: 'sn', order: 'desc', page: 2, size: 50 });
    expect(fetchMock.mock.calls[0][0]).toBe('/apis/devices?nameOrSn=00003&status=online&typeId=5&tagId=2&sort=sn&order=desc&page=2&size=50');
  });

  it('renames by sending the whole profile back with the new name', async () => {
    const profile = { name: 'Old', location: 'North field', lng: 116.1, lat: 37.5, altitude: 12, installTime: 1_700_000_000_000 };
    const fetchMock = serve((url, init) =>
      init?.method === 'PUT' ? ok(JSON.parse(String(init.body))) : url.endsWith('/poi/7/profile') ? ok(profile) : jsonResponse({ code: 1404 }, 404),
    );

    const saved = await renameDevice({ deviceId: 7, name: 'East gauge' });

    expect(fetchMock.mock.calls.map(([url, init]) => `${init?.method} ${url}`)).toEqual(['GET /apis/poi/7/profile', 'PUT /apis/poi/7/profile']);
    expect(JSON.parse(String(fetchMock.mock.calls[1][1]?.body))).toEqual({ ...profile, name: 'East gauge' });
    expect(saved.name).toBe('East gauge');
  });

  it('takes the tile source the server configures', async () => {
    const config = { url: 'https://t{s}.example.cn/{z}/{x}/{y}.png', subdomains: ['1', '2'], coords: 'gcj02', attribution: 'Example', maxZoom: 18 };
    serve(() => ok(config));
    expect(await getMapConfig()).toEqual(config);
  });

  it('falls back to OpenStreetMap in WGS84 when the server has no tile source', async () => {
    serve(() => jsonResponse({ code: 1404, message: 'The resource does not exist', data: null }, 404));
    expect(await getMapConfig()).toEqual(FALLBACK_MAP_CONFIG);
    expect(FALLBACK_MAP_CONFIG).toMatchObject({ url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', coords: 'wgs84' });

    serve(() => ok({ url: '', coords: 'mercator' }));
    expect(await getMapConfig()).toEqual(FALLBACK_MAP_CONFIG);
  });

  it('does not hide other failures behind the fallback', async () => {
    serve(() => jsonResponse({ code: 1403, message: 'Forbidden', data: null }, 403));
    await expect(getMapConfig()).rejects.toMatchObject({ code: 1403 });
  });
});
