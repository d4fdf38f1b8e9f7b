import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Message } from '@/features/events/types';
import { jsonResponse, renderRoutes } from '@/testing/render';
import type { MessageFilters } from '../list-state';
import { MessageList } from './message-list';

function message(messageId: number, overrides: Partial<Message> = {}): Message {
  return {
    messageId,
    ruleId: 1,
    ruleDeviceId: 9,
    sn: 'DM05000009',
    ruleName: 'Humid air',
    typeId: 5,
    deviceType: 'Automatic weather station',
    time: Date.now() - 60_000,
    description: `Rule triggered: air humidity 9${messageId} %RH`,
    kind: 'warning',
    level: 'normal',
    read: false,
    values: [],
    ...overrides,
  };
}

/** The messages, the devices (map/all) and mark-read; answers what was asked. */
function serve(list: Message[]) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${url.pathname}${url.search} ${init?.body ?? ''}`.trim());
      const ok = (data: unknown) => jsonResponse({ code: 0, message: '', data });
      if (url.pathname === '/apis/map/all') {
        return ok({ list: [{ id: 9, hashId: 'h9', sn: 'DM05000009', name: 'East station', typeId: 5, page: 'tianqi', status: 'online', group: 'working', lng: 116, lat: 37, lastReportTime: null }], groups: {} });
      }
      if (method === 'PUT') {
        const { ids } = JSON.parse(String(init?.body)) as { ids: number[] };
        for (const m of list) if (ids.includes(m.messageId)) m.read = true;
        return ok({ updated: ids.length });
      }
      if (method === 'OPTIONS') return ok({ unread: list.filter((m) => !m.read).length });
      return ok({ list, total: list.length });
    }),
  );
  return calls;
}

function renderList(filters: MessageFilters = { unread: false }) {
  return renderRoutes(
    [
      { path: '/apps/mobile/messages', element: <MessageList filters={filters} onClear={() => {}} /> },
      { path: '/apps/mobile/poi/:hashId/:deviceId/realtime', element: <p>realtime</p> },
    ],
    { mobile: true, path: '/apps/mobile/messages' },
  );
}

describe('MessageList', () => {
  it('shows level, kind, rule, what happened and the device by name; unread rows stand out', async () => {
    serve([message(2), message(1, { read: true, kind: 'common', level: 'alarm', ruleDeviceId: 77, sn: 'DM-GONE' })]);
    renderList();

    const rows = await screen.findAllByTestId('mobile-message-row');
    expect(rows).toHaveLength(2);
    await waitFor(() => expect(rows[0]).toHaveTextContent('East station'));
    expect(rows[0]).toHaveTextContent('普通');
    expect(rows[0]).toHaveTextContent('触发');
    expect(rows[0]).toHaveTextContent('Humid air');
    expect(rows[0]).toHaveTextContent('Rule triggered: air humidity 92 %RH');
    expect(rows[0]).toHaveClass('fw-m-message--unread');
    expect(within(rows[0]).getByLabelText('未读')).toBeInTheDocument();
    // A device no longer listed: its SN stands in for the name.
    expect(rows[1]).toHaveTextContent('DM-GONE');
    expect(rows[1]).toHaveTextContent('告警');
    expect(rows[1]).toHaveTextContent('恢复正常');
    expect(rows[1]).not.toHaveClass('fw-m-message--unread');
  });

  it('opening a message marks it read and opens its device on the phone', async () => {
    const calls = serve([message(2), message(1)]);
    const user = userEvent.setup();
    const { router } = renderList();

    const rows = await screen.findAllByTestId('mobile-message-row');
    await waitFor(() => expect(rows[1]).toHaveTextContent('East station'));
    await user.click(within(rows[1]).getByText('Rule triggered: air humidity 91 %RH'));

    expect(router.state.location.pathname).toBe('/apps/mobile/poi/h9/9/realtime');
    await waitFor(() => expect(calls).toContain('PUT /apis/event/messages/read {"ids":[1]}'));
  });

  it('sends the filters and asks for unread only', async () => {
    const calls = serve([message(1)]);
    renderList({ unread: true, level: 'alarm', kind: 'common' });

    await screen.findAllByTestId('mobile-message-row');
    expect(calls).toContain('GET /apis/event/messages?level=alarm&kind=common&unread=true&page=1&size=20');
  });

  it('says so when there are no messages', async () => {
    serve([]);
    renderList();
    expect(await screen.findByText(/暂无消息|没有消息/)).toBeInTheDocument();
  });
});
