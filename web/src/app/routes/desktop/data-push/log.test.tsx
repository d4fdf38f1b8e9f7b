import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { channel, choices, entries } from '@/features/integration/testing/fixtures';
import { callsTo, serve } from '@/testing/serve';
import { changeLanguage } from '@/lib/i18n';
import { renderRoutes } from '@/testing/render';
import DataPushLogRoute from './log';

function renderLog(path: string) {
  return renderRoutes([{ path: '/console/data/push/log', Component: DataPushLogRoute }], { path });
}

const logCalls = (fetchMock: ReturnType<typeof serve>) =>
  callsTo(fetchMock, 'GET', '/apis/integration/channel/pushLogList').map(({ url }) => Object.fromEntries(url.searchParams));

describe('push log page', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('shows one channel\'s figures and entries, and sends the chosen filters', async () => {
    const fetchMock = serve({
      'GET /apis/integration/channel/list': () => ({ list: [channel], total: 1 }),
      'GET /apis/integration/channel/selector': () => choices,
      'GET /apis/integration/channel/pushLogList': () => ({ list: entries, total: entries.length, window: '1h', stats: channel }),
    });
    const user = userEvent.setup();
    renderLog('/console/data/push/log?channelId=3');

    const stats = await screen.findByTestId('channel-stats');
    expect(within(stats).getByText('75%')).toBeInTheDocument();
    expect(within(stats).getByText('42 ms / 180 ms')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Push log: Farm ERP' })).toBeInTheDocument();
    // Device ids are shown as the devices' names and SNs.
    expect(await screen.findByText('North field station')).toBeInTheDocument();
    expect(screen.getByText('TQS0100011')).toBeInTheDocument();
    expect(screen.getByText('Gave up after 9 attempts')).toBeInTheDocument();
    expect(screen.getByText(/^2 attempts failed, next at \d\d:\d\d:\d\d$/)).toBeInTheDocument();
    expect(logCalls(fetchMock)[0]).toEqual({ channelId: '3', window: '1h', page: '1', size: '20' });

    await user.click(screen.getByText('1 day'));
    await waitFor(() => expect(logCalls(fetchMock).at(-1)).toEqual({ channelId: '3', window: '1d', page: '1', size: '20' }));

    await user.click(within(screen.getByTestId('log-status')).getByRole('combobox'));
    await user.click(await screen.findByTitle('Failed'));
    await waitFor(() => expect(logCalls(fetchMock).at(-1)).toEqual({ channelId: '3', status: 'fail', window: '1d', page: '1', size: '20' }));

    for (const [label, value] of [['15 min', '15m'], ['1 hour', '1h'], ['3 hours', '3h'], ['3 days', '3d'], ['1 week', '1w']]) {
      await user.click(screen.getByText(label));
      await waitFor(() => expect(logCalls(fetchMock).at(-1)?.window).toBe(value));
    }
  });

  it('opens a row to show the data sent and the error', async () => {
    serve({
      'GET /apis/integration/channel/list': () => ({ list: [channel], total: 1 }),
      'GET /apis/integration/channel/selector': () => choices,
      'GET /apis/integration/channel/pushLogList': () => ({ list: entries, total: entries.length, window: '1h' }),
    });
    const user = userEvent.setup();
    renderLog('/console/data/push/log');
    // All channels: a channel column, no figures.
    expect(await screen.findAllByText('Farm ERP')).not.toHaveLength(0);
    expect(screen.queryByTestId('channel-stats')).not.toBeInTheDocument();
    await user.click(screen.getByText('North field station'));
    const detail = await screen.findByTestId('log-detail');
    expect(within(detail).getByTestId('log-body').textContent).toContain('"airTemp": 3.5');
    expect(within(detail).getByText('Last error')).toBeInTheDocument();
  });

  it('retries a failed entry and fetches the log again', async () => {
    let retried = false;
    const fetchMock = serve({
      'GET /apis/integration/channel/list': () => ({ list: [channel], total: 1 }),
      'GET /apis/integration/channel/selector': () => choices,
      'GET /apis/integration/channel/pushLogList': () => ({
        list: retried ? [{ ...entries[0], status: 'pending', attempts: 0, error: '', nextTime: Date.now() }] : entries,
        total: 3,
        window: '1h',
        stats: channel,
      }),
      'POST /apis/integration/channel/retry': () => {
        retried = true;
        return null;
      },
    });
    const user = userEvent.setup();
    renderLog('/console/data/push/log?channelId=3');

    const retry = await screen.findAllByTestId('log-retry');
    // Only the failed entry can be retried.
    expect(retry).toHaveLength(1);
    const before = logCalls(fetchMock).length;
    await user.click(retry[0]);
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/apis/integration/channel/retry').map((c) => c.body)).toEqual([{ id: 101 }]));
    await waitFor(() => expect(logCalls(fetchMock).length).toBeGreaterThan(before));
    expect(await screen.findByText('Waiting to be sent')).toBeInTheDocument();
    expect(screen.queryByTestId('log-retry')).not.toBeInTheDocument();
  });
});
