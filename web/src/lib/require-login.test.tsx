import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { renderRoutes } from '@/testing/render';
import { useRequireLogin } from './require-login';

function Export({ loggedIn, onExport }: { loggedIn: boolean; onExport: () => void }) {
  const requireLogin = useRequireLogin(loggedIn);
  return (
    <button type="button" onClick={requireLogin(onExport)}>
      export
    </button>
  );
}

describe('useRequireLogin', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('runs the action for a logged-in user', async () => {
    const onExport = vi.fn();
    renderRoutes([{ path: '*', element: <Export loggedIn onExport={onExport} /> }], { path: '/uni-portal/SN1' });

    await userEvent.click(screen.getByRole('button', { name: 'export' }));

    expect(onExport).toHaveBeenCalledOnce();
  });

  it('asks a visitor to log in and opens the login page that returns here', async () => {
    const onExport = vi.fn();
    const { router } = renderRoutes([{ path: '*', element: <Export loggedIn={false} onExport={onExport} /> }], {
      path: '/uni-portal/SN1?tab=control',
    });

    await userEvent.click(screen.getByRole('button', { name: 'export' }));

    expect(onExport).not.toHaveBeenCalled();
    expect(await screen.findByText('Please log in first')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=%2Funi-portal%2FSN1%3Ftab%3Dcontrol');
  });
});
