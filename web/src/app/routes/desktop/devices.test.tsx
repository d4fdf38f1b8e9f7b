import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Device } from '@/features/devices/types';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderRoutes } from '@/testing/render';
import { callsTo } from '@/testing/serve';
import DevicesRoute from './devices';

const profile = { accountNumber: 'demo01', name: 'Demo farm', phone: '', mail: '', wechatBound: false, registeredAt: 0, lastLoginAt: 0, loginMethods: ['password'], timezone: 'Asia/Shanghai' };

function device(id: number, overrides: Partial<Device> = {}): Device {
  return {
    id,
    poiId: id,
    deviceId: id,
    hashId: `hash${id}`,
    sn: `DM0100000${id}`,
    name: `Probe ${id}`,
    typeId: 1,
    typeName: '3-depth soil moisture probe',
    model: 'SMP003',
    category: 'soil',
    page: 'moisture',
    slave: false,
    status: 'online',
    statusName: 'Online',
    group: 'working',
    belong: 'mine',
    battery: 4.019,
    lowBattery: false,
    signal: -80,
    chargeVoltage: null,
    lastReportTime: Date.now() - 5.5 * 60_000,
    location: '',
    lng: 116.17,
    lat: 37.5,
    altitude: null,
    installTime: null,
    tags: [],
    faults: [],
    ...overrides,
  };
}

type Handler = (url: URL, init?: RequestInit) => unknown;

/** Serves the API from a table of "METHOD /path" handlers; the profile is always there. */
function serve(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    if (key === 'GET /apis/account/session') return jsonResponse({ code: 0, message: '', data: profile });
    const handler = handlers[key];
    if (!handler) return jsonResponse({ code: 1404, message: 'The resource does not exist', data: null }, 404);
    const result = handler(url, init);
    return result instanceof Response ? result : jsonResponse({ code: 0, message: '', data: result });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The page alone, without the console around it: the table is heavy enough for jsdom. */
function renderPage(path = '/apps/devices') {
  return renderRoutes([{ path: '/apps/devices', Component: DevicesRoute }], { path });
}

const listCalls = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost')).filter((url) => url.pathname === '/apis/devices');

describe('device list page', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('shows devices with two-decimal truncated values, -- for missing ones and the low-battery warning', async () => {
    serve({
      'GET /apis/devices': () => ({
        list: [device(1), device(2, { name: 'Gauge', battery: 3.1, signal: null, lastReportTime: null, page: 'pluviometer', status: 'lowpower', statusName: 'Low power' })],
        total: 2,
      }),
      'GET /apis/tags': () => [],
    });
    renderPage();

    const first = (await screen.findByText('Probe 1')).closest('tr')!;
    expect(within(first).getByText('4.01 V')).toBeInTheDocument();
    expect(within(first).getByText('-80 dBm')).toBeInTheDocument();
    expect(within(first).getByText('Online')).toBeInTheDocument();
    expect(within(first).getByText('5 minutes ago')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Probe 1' })).toHaveAttribute('href', '/apps/poi/moisture/hash1/1');

    const second = screen.getByText('Gauge').closest('tr')!;
    expect(within(second).getByLabelText('3.1 V Low battery')).toBeInTheDocument();
    expect(within(second).getAllByText('--')).toHaveLength(2); // signal, last report
    expect(within(second).getByText('Low power')).toBeInTheDocument();
    expect(within(second).getByRole('link', { name: 'Gauge' })).toHaveAttribute('href', '/apps/poi/pluviometer/hash2');
    expect(screen.getByText('2 devices')).toBeInTheDocument();
  });

  it('keeps filters in the address and sends them to the server', async () => {
    const user = userEvent.setup({ delay: null });
    const fetchMock = serve({ 'GET /apis/devices': () => ({ list: [device(3)], total: 1 }), 'GET /apis/tags': () => [] });
    const { router } = renderPage('/apps/devices?status=offline&sort=name&order=desc&page=1');

    await screen.findByText('Probe 3');
    expect(listCalls(fetchMock).at(-1)!.search).toBe('?status=offline&sort=name&order=desc&page=1&size=20');

    await user.type(screen.getByPlaceholderText('Device name or last 5 digits of SN'), '00003{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?nameOrSn=00003&status=offline&sort=name&order=desc'));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.searchParams.get('nameOrSn')).toBe('00003'));

    await user.click(screen.getByRole('button', { name: /Clear filters/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&order=desc'));
  });

  it('checks a new name before renaming, then sends the whole profile back', async () => {
    const user = userEvent.setup({ delay: null });
    const saved: unknown[] = [];
    serve({
      'GET /apis/devices': () => ({ list: [device(4)], total: 1 }),
      'GET /apis/tags': () => [],
      'GET /apis/poi/4/profile': () => ({ name: 'Probe 4', location: 'East', lng: 116.17, lat: 37.5, altitude: 20, installTime: 1 }),
      'PUT /apis/poi/4/profile': (_url, init) => {
        const body = JSON.parse(String(init?.body));
        saved.push(body);
        return body;
      },
    });
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('Device name');
    await user.clear(input);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Name cannot be empty')).toBeInTheDocument();
    expect(saved).toEqual([]);

    await user.type(input, 'East probe');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([{ name: 'East probe', location: 'East', lng: 116.17, lat: 37.5, altitude: 20, installTime: 1 }]));
  });

  it('makes a new tag and puts it on the device in one call', async () => {
    const user = userEvent.setup({ delay: null });
    const fetchMock = serve({
      'GET /apis/devices': () => ({ list: [device(5, { tags: [] })], total: 1 }),
      'GET /apis/tags': () => [],
      'POST /apis/poi/5/tag': () => [{ tagId: 9, tag: 'Spare' }],
    });
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Add a tag to Probe 5' }));
    const picker = await screen.findByTestId('tag-picker');
    await user.type(within(picker).getByPlaceholderText('New tag name'), 'Spare');
    await user.click(within(picker).getByRole('button', { name: 'Create and add' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/apis/poi/5/tag').map((c) => c.body)).toEqual([{ tag: 'Spare' }]));
    expect(callsTo(fetchMock, 'POST', '/apis/tag')).toEqual([]);
  });

  it("shows the server's refusal of a fourth tag", async () => {
    const user = userEvent.setup({ delay: null });
    const tags = [
      { tagId: 1, tag: 'North' },
      { tagId: 2, tag: 'Orchard' },
      { tagId: 3, tag: 'Irrigated' },
      { tagId: 4, tag: 'Spare' },
    ];
    serve({
      'GET /apis/devices': () => ({ list: [device(5, { tags: tags.slice(0, 3) })], total: 1 }),
      'GET /apis/tags': () => tags,
      'POST /apis/poi/5/tag': () =>
        jsonResponse({ code: 1409, message: 'Up to 3 tags can be added per device!', data: null, error: { key: 'device.tag.limit' } }, 409),
    });
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Add a tag to Probe 5' }));
    const picker = await screen.findByTestId('tag-picker');
    await user.click(within(picker).getByRole('button', { name: 'Spare' }));
    expect(await within(picker).findByRole('alert')).toHaveTextContent('Up to 3 tags can be added per device!');
  });
});
