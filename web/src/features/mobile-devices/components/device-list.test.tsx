import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Device } from '@/features/devices/types';
import { jsonResponse, renderRoutes } from '@/testing/render';
import { DeviceList } from './device-list';

function device(id: number, overrides: Partial<Device> = {}): Device {
  return {
    id,
    poiId: id,
    deviceId: id,
    hashId: `h${id}`,
    sn: `DM0100000${id}`,
    name: `Field ${id}`,
    typeId: 5,
    typeName: 'Automatic weather station',
    model: 'TQS010',
    category: 'meteorology',
    page: 'tianqi',
    slave: false,
    status: 'online',
    statusName: 'Online',
    group: 'working',
    belong: 'mine',
    battery: 12.6,
    lowBattery: false,
    signal: -70,
    chargeVoltage: null,
    lastReportTime: Date.now() - 60_000,
    location: '',
    lng: 116,
    lat: 37,
    altitude: null,
    installTime: null,
    tags: [],
    faults: [],
    ...overrides,
  };
}

/** GET /apis/devices in pages of 20 out of `total` devices. */
function serveDevices(total: number, extra: (id: number) => Partial<Device> = () => ({})) {
  const calls: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(url.searchParams);
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('size'));
      const ids = Array.from({ length: total }, (_, i) => i + 1).slice((page - 1) * size, page * size);
      return jsonResponse({ code: 0, message: '', data: { list: ids.map((id) => device(id, extra(id))), total } });
    }),
  );
  return calls;
}

function renderList(props: Partial<Parameters<typeof DeviceList>[0]> = {}) {
  const onTag = vi.fn();
  const onClear = vi.fn();
  const view = renderRoutes(
    [
      { path: '/apps/mobile/devices', element: <DeviceList filters={{ nameOrSn: '' }} filtered={false} onTag={onTag} onClear={onClear} {...props} /> },
      { path: '/apps/mobile/poi/:hashId/:deviceId/realtime', element: <p>realtime</p> },
    ],
    { mobile: true, path: '/apps/mobile/devices' },
  );
  return { ...view, onTag, onClear };
}

afterEach(() => vi.restoreAllMocks());

describe('DeviceList', () => {
  it('lists name, type, status, battery and signal, and opens the phone real-time screen', async () => {
    serveDevices(2, (id) => (id === 2 ? { status: 'offline', battery: 3.1, signal: -100, name: 'Orchard' } : {}));
    const user = userEvent.setup();
    const { router } = renderList();

    const rows = await screen.findAllByTestId('mobile-device-row');
    expect(rows).toHaveLength(2);
    expect(screen.getByTestId('mobile-device-total')).toHaveTextContent('2');
    const orchard = rows[1];
    expect(orchard).toHaveTextContent('Orchard');
    expect(orchard).toHaveTextContent('自动气象站');
    expect(orchard).toHaveTextContent('离线');
    expect(within(orchard).getByLabelText('3.1 V 电量低')).toHaveClass('fw-m-device__battery--low');
    expect(within(rows[0]).getByRole('img').dataset.level).toBe('4');
    expect(within(orchard).getByRole('img').dataset.level).toBe('1');

    await user.click(screen.getByText('Orchard'));
    expect(router.state.location.pathname).toBe('/apps/mobile/poi/h2/2/realtime');
  });

  it('asks for the filters and loads the next page when scrolled to the end', async () => {
    const calls = serveDevices(45);
    // jsdom lays nothing out: the scroller's end counts as shown once it has a layout parent.
    const offsetParent = vi.spyOn(HTMLElement.prototype, 'offsetParent', 'get').mockReturnValue(document.body);
    renderList({ filters: { nameOrSn: '12345', status: 'offline', typeId: 5, tagId: 3 }, filtered: true });

    await waitFor(() => expect(screen.getAllByTestId('mobile-device-row')).toHaveLength(45));
    offsetParent.mockRestore();
    expect(calls.map((params) => params.get('page'))).toEqual(['1', '2', '3']);
    expect(Object.fromEntries(calls[0])).toEqual({ nameOrSn: '12345', status: 'offline', typeId: '5', tagId: '3', page: '1', size: '20' });
  });

  it('narrows to a tapped tag without opening the device', async () => {
    serveDevices(1, () => ({ tags: [{ tagId: 4, tag: 'Orchard' }] }));
    const { onTag, router } = renderList();

    fireEvent.click(await screen.findByText('Orchard'));
    expect(onTag).toHaveBeenCalledWith(4);
    expect(router.state.location.pathname).toBe('/apps/mobile/devices');
  });

  it('offers to clear the filters when nothing matches', async () => {
    serveDevices(0);
    const user = userEvent.setup();
    const { onClear } = renderList({ filters: { nameOrSn: 'nothing' }, filtered: true });

    await user.click(await screen.findByRole('button', { name: '清除筛选' }));
    expect(onClear).toHaveBeenCalled();
  });
});
