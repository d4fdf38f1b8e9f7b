import { AlertOutlined } from '@ant-design/icons';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { useMarkRead } from '../api/mark-read';
import { UnreadMenuIcon } from './unread-badge';

function MarkAllRead() {
  const markRead = useMarkRead();
  return <button onClick={() => markRead.mutate([])}>all read</button>;
}

describe('UnreadMenuIcon', () => {
  it('shows the unread count from OPTIONS /apis/event/messages and refreshes it after marking read', async () => {
    let unread = 3;
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        calls.push(`${method} ${String(input)} ${init?.body ?? ''}`.trim());
        if (method === 'PUT') {
          const updated = unread;
          unread = 0;
          return jsonResponse({ code: 0, message: '', data: { updated } });
        }
        return jsonResponse({ code: 0, message: '', data: { unread } });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <UnreadMenuIcon icon={<AlertOutlined />} />
        <MarkAllRead />
      </>,
    );

    await waitFor(() => expect(screen.getByTestId('unread-badge')).toHaveTextContent('3'));
    expect(calls).toEqual(['OPTIONS /apis/event/messages']);

    await user.click(screen.getByRole('button', { name: 'all read' }));
    await waitFor(() => expect(screen.getByTestId('unread-badge')).not.toHaveTextContent('3'));
    expect(calls).toEqual(['OPTIONS /apis/event/messages', 'PUT /apis/event/messages/read {"ids":[]}', 'OPTIONS /apis/event/messages']);
  });
});
