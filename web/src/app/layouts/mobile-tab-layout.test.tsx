import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUnreadCount } from '@/features/events/api/get-unread-count';
import { useMarkRead } from '@/features/events/api/mark-read';
import { jsonResponse, renderRoutes } from '@/testing/render';
import { MobileTabLayout } from './mobile-tab-layout';

function MarkOneRead() {
  const markRead = useMarkRead();
  return <button onClick={() => markRead.mutate([1])}>read one</button>;
}

function UnreadText() {
  const { data } = useUnreadCount();
  return <p>{data === undefined ? 'loading' : `unread ${data}`}</p>;
}

describe('MobileTabLayout', () => {
  it('shows the unread count on the messages tab and lowers it when a message is read', async () => {
    let unread = 3;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
        if (init?.method === 'PUT') {
          unread -= 1;
          return jsonResponse({ code: 0, message: '', data: { updated: 1 } });
        }
        return jsonResponse({ code: 0, message: '', data: { unread } });
      }),
    );
    const user = userEvent.setup();
    const { container } = renderRoutes(
      [{ path: '/apps/mobile', element: <MobileTabLayout />, children: [{ path: 'devices', element: <MarkOneRead /> }] }],
      { mobile: true, path: '/apps/mobile/devices' },
    );

    const badge = () => container.querySelector('.adm-tab-bar-item:nth-child(2) .adm-badge-content');
    await waitFor(() => expect(badge()).toHaveTextContent('3'));
    expect(container.querySelector('.adm-tab-bar-item:nth-child(1) .adm-badge-content')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'read one' }));
    await waitFor(() => expect(badge()).toHaveTextContent('2'));
  });

  it('shows no badge when everything is read', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ code: 0, message: '', data: { unread: 0 } })));
    const { container } = renderRoutes(
      [{ path: '/apps/mobile', element: <MobileTabLayout />, children: [{ path: 'devices', element: <UnreadText /> }] }],
      { mobile: true, path: '/apps/mobile/devices' },
    );
    // The count has arrived (the same query the tab bar reads).
    await screen.findByText('unread 0');
    expect(container.querySelector('.adm-badge')).toBeNull();
  });
});
