import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import userEvent from '@testing-library/user-event';
import { channel } from '@/features/integration/testing/fixtures';
import { callsTo, serve } from '@/testing/serve';
import { changeLanguage } from '@/lib/i18n';
import { renderRoutes } from '@/testing/render';
import DataPushChannelsRoute from './channels';

function renderChannels(path = '/console/data/push/') {
  return renderRoutes([{ path: '/console/data/push/', Component: DataPushChannelsRoute }], { path });
}

describe('data push channels page', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('explains data push when there is no channel', async () => {
    serve({ 'GET /apis/integration/channel/list': () => ({ list: [], total: 0 }) });
    renderChannels();
    const empty = await screen.findByTestId('push-empty');
    expect(within(empty).getByText('Send your devices\' data to your own system')).toBeInTheDocument();
    expect(within(empty).getByText('What your server receives').closest('a')).toHaveAttribute('href', '/console/data/push/help');
  });

  it('shows live figures over the chosen window and switches a channel off', async () => {
    const fetchMock = serve({
      'GET /apis/integration/channel/list': () => ({ list: [channel], total: 1 }),
      'PUT /apis/integration/channel/switch': () => null,
    });
    const user = userEvent.setup();
    renderChannels();
    expect(await screen.findByText('Farm ERP')).toBeInTheDocument();
    expect(screen.getByText('https://erp.example.com/in')).toBeInTheDocument();
    expect(screen.getByText('2 devices')).toBeInTheDocument();
    expect(screen.getByTestId('success-rate')).toHaveTextContent('75%');
    expect(screen.getByText('typical 42 ms')).toBeInTheDocument();
    const lists = () => callsTo(fetchMock, 'GET', '/apis/integration/channel/list').map(({ url }) => url.searchParams.get('window'));
    expect(lists()[0]).toBe('1h');
    await user.click(screen.getByText('1 week'));
    await waitFor(() => expect(lists().at(-1)).toBe('1w'));

    await user.click(screen.getByLabelText('Send data of Farm ERP'));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/apis/integration/channel/switch').map((c) => c.body)).toEqual([{ id: 3, enabled: false }]));
  });

  it('says that reports arriving while a channel is off are not pushed later', async () => {
    serve({ 'GET /apis/integration/channel/list': () => ({ list: [channel], total: 1 }) });
    const user = userEvent.setup();
    renderChannels();
    await user.hover(await screen.findByLabelText('Send data of Farm ERP'));
    const hint = await screen.findByRole('tooltip');
    expect(hint).toHaveTextContent('reports that arrive while it is off are not pushed, not even later');
    expect(hint).not.toHaveTextContent(/queuing|queued reports/);
  });
});
