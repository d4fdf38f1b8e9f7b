import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiHandlers } from '@/lib/api-client';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderRoutes } from '@/testing/render';
import { routes } from './router';

const profile = {
  accountNumber: 'demo01',
  name: 'Demo farm',
  phone: '13800000000',
  mail: '',
  wechatBound: false,
  registeredAt: 1_700_000_000_000,
  lastLoginAt: 1_700_000_100_000,
  loginMethods: ['password'], timezone: 'Asia/Shanghai',
};

function serveProfile() {
  const fetchMock = vi.fn(async () => jsonResponse({ code: 0, message: '', data: profile }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('router', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('shows a not-found page with a way home for unknown paths, without asking who is logged in', async () => {
    const fetchMock = serveProfile();
    renderRoutes(routes, { path: '/no/such/screen' });

    expect(await screen.findByText('Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a visitor without a session to the login page the server names', async () => {
    const onSessionExpired = vi.fn();
    const restore = setApiHandlers({ onSessionExpired });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ code: 2, message: '', data: { returnUrl: '/login?redirect=%2Fapps%2Frules' } }, 401)),
    );

    renderRoutes(routes, { path: '/apps/rules' });

    await waitFor(() => expect(onSessionExpired).toHaveBeenCalledWith('/login?redirect=%2Fapps%2Frules'));
    restore();
  });

  it('redirects / to the device list inside the desktop shell', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = String(input);
        const data = path.startsWith('/apis/account/session') ? profile : path.startsWith('/apis/tags') ? [] : { list: [], total: 0 };
        return jsonResponse({ code: 0, message: '', data });
      }),
    );
    const { router } = renderRoutes(routes, { path: '/' });

    expect(await screen.findByRole('heading', { name: 'Devices' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/apps/devices');
    expect(screen.getByRole('menuitem', { name: /Device/ })).toBeInTheDocument();
    expect(screen.getByText('Demo farm')).toBeInTheDocument();
  });

  it('opens the model service at its samples', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = String(input);
        const data = path.startsWith('/apis/account/session') ? profile : path.startsWith('/apis/tags') ? [] : { list: [], total: 0 };
        return jsonResponse({ code: 0, message: '', data });
      }),
    );
    const { router } = renderRoutes(routes, { path: '/apps/model-service' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/model-service/samples'));
    expect(await screen.findByRole('heading', { name: 'Samples' })).toBeInTheDocument();
  });

  it('opens the phone counterpart of a desktop path in mobile mode', async () => {
    serveProfile();
    const { router } = renderRoutes(routes, { path: '/console/account', mobile: true });

    expect(await screen.findByLabelText('Confirm new password')).toHaveClass('adm-input-element');
    expect(router.state.location.pathname).toBe('/apps/mobile/account');
  });

  it('opens the desktop counterpart of a phone path out of mobile mode', async () => {
    serveProfile();
    const { router } = renderRoutes(routes, { path: '/apps/mobile/account', mobile: false });

    await waitFor(() => expect(router.state.location.pathname).toBe('/console/account'));
  });

  it('finds the desktop detail page of a phone device screen whose path has no type', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), 'http://localhost');
        if (url.pathname === '/apis/account/session') return jsonResponse({ code: 0, message: '', data: profile });
        if (url.pathname === '/apis/poi/info' && url.searchParams.get('id') === '7') {
          return jsonResponse({ code: 0, message: '', data: { id: 7, hashId: 'h1', page: 'moisture', name: 'Probe' } });
        }
        return jsonResponse({ code: 0, message: '', data: { list: [], total: 0 } });
      }),
    );
    const { router } = renderRoutes(routes, { path: '/apps/mobile/poi/h1/7/history', mobile: false });

    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/poi/moisture/h1/7'));
  });

  it('opens a share link on the phone page that accepts it in mobile mode', async () => {
    serveProfile();
    const { router } = renderRoutes(routes, { path: '/apps/authoried/grant?credential=abc', mobile: true });

    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/mobile/authorization/accept/abc'));
  });

  it('keeps public portal pages free of the login check', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        asked.push(String(input));
        return jsonResponse({ code: 1404, message: 'The page does not exist', error: { key: 'portal.notFound' }, data: null }, 404);
      }),
    );
    renderRoutes(routes, { path: '/uni-portal/SN0001' });

    expect(await screen.findByText('The page does not exist')).toBeInTheDocument();
    expect(asked.some((url) => url.startsWith('/apis/uni/device/SN0001'))).toBe(true);
    expect(asked.filter((url) => url.startsWith('/apis/account'))).toEqual([]);
  });

  it('opens a partner site\u2019s /external-device/{sn}.{token} as the portal, the token moved out of the path', async () => {
    const token = 'A'.repeat(40) + '_-b';
    const asked: { url: string; token: string | null }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        asked.push({ url: String(input), token: new Headers(init?.headers).get('X-Portal-Token') });
        return jsonResponse({ code: 1404, message: 'The page does not exist', error: { key: 'portal.notFound' }, data: null }, 404);
      }),
    );
    const { router } = renderRoutes(routes, { path: `/external-device/SN0001.${token}` });

    await waitFor(() => expect(router.state.location.pathname).toBe('/uni-portal/SN0001'));
    expect(router.state.location.hash).toBe(`#k=${token}`);
    expect(await screen.findByText('The page does not exist')).toBeInTheDocument();
    expect(asked.some((a) => a.url.startsWith('/apis/uni/device/SN0001') && a.token === token)).toBe(true);
  });

  it('answers check parameters that are not a portal link as a page that does not exist', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        asked.push(String(input));
        return jsonResponse({ code: 1404, message: 'The page does not exist', error: { key: 'portal.notFound' }, data: null }, 404);
      }),
    );
    const { router } = renderRoutes(routes, { path: '/external-device/not-a-link' });

    expect(await screen.findByText('The page does not exist')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/external-device/not-a-link');
    expect(asked.filter((url) => url.startsWith('/apis/account'))).toEqual([]);
  });

  it.each([
    ['desktop', false],
    ['phone', true],
  ])('shows a fatal server error in a dialog on the %s', async (_name, mobile) => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ code: 3, message: 'Database unavailable', data: null }, 500)));

    renderRoutes(routes, { path: '/apps/devices', mobile });

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('System error');
    expect(dialog).toHaveTextContent('Database unavailable');
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('switches to dark mode and remembers it', async () => {
    serveProfile();
    const user = userEvent.setup();
    renderRoutes(routes, { path: '/apps/events' });

    await user.click(await screen.findByTestId('theme-toggle'));

    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    expect(document.documentElement).toHaveAttribute('data-prefers-color-scheme', 'dark');
    expect(window.localStorage.getItem('theme')).toBe('dark');
  });
});
