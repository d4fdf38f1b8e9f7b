import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo, refusal, serve } from '@/testing/serve';
import { setApiHandlers } from '@/lib/api-client';
import { changeLanguage } from '@/lib/i18n';
import { renderRoutes } from '@/testing/render';
import AuthorizedRoute from './authorized';

const profile = { accountNumber: 'grower02', name: 'Li Wei', phone: '', mail: '', wechatBound: false, registeredAt: 0, lastLoginAt: 0, loginMethods: ['password'], timezone: 'Asia/Shanghai' };

const grant = {
  id: 'c0ffee',
  kind: 'grant',
  status: 'available',
  expireAt: new Date(2026, 10, 23, 15, 42).getTime(),
  from: { name: 'Demo farm' },
  purview: { rename: false, settings: false, export: true },
  devices: [
    { name: 'North field station', typeName: 'Automatic weather station', model: 'WS501' },
    { name: 'Orchard probe', typeName: '3-depth soil moisture probe', model: 'SMP003' },
  ],
};

function Login() {
  const location = useLocation();
  return <div data-testid="login-page">{`${location.pathname}${location.search}`}</div>;
}

function renderPage(path = '/apps/authoried/grant?credential=c0ffee') {
  return renderRoutes(
    [
      { path: '/apps/authoried/:type', Component: AuthorizedRoute },
      { path: '/login', Component: Login },
      { path: '/apps/devices', element: <div data-testid="device-list" /> },
    ],
    { path },
  );
}

describe('link acceptance page', () => {
  const onSessionExpired = vi.fn();
  let restore: () => void;
  beforeEach(async () => {
    await changeLanguage('en_US');
    onSessionExpired.mockReset();
    restore = setApiHandlers({ onSessionExpired });
  });
  afterEach(() => restore());

  it('describes an available link and accepts it for the logged-in account', async () => {
    let used = false;
    const fetchMock = serve({
      // Once used, the link describes itself as unavailable; the page keeps showing the acceptance.
      'GET /apis/device/credential/c0ffee': () => (used ? { id: 'c0ffee', status: 'unavailable' } : grant),
      'GET /apis/account/session': () => profile,
      'POST /apis/grant/accept/c0ffee': () => {
        used = true;
        return { kind: 'grant', devices: [{ id: 13, name: 'North field station' }, { id: 14, name: 'Orchard probe' }] };
      },
    });
    const user = userEvent.setup();
    renderPage();

    expect(await screen.findByText('Demo farm shares 2 devices with you')).toBeInTheDocument();
    expect(screen.getByText('North field station')).toBeInTheDocument();
    expect(screen.getByText('3-depth soil moisture probe · SMP003')).toBeInTheDocument();
    expect(screen.getByText('Export data')).toBeInTheDocument();
    expect(screen.getByText('The link is valid until 15:42 and can be used once')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Share accepted')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/apis/grant/accept/c0ffee')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Go to the device list' }));
    expect(await screen.findByTestId('device-list')).toBeInTheDocument();
  });

  it('asks a visitor without a session to log in first, and comes back here afterwards', async () => {
    const fetchMock = serve({
      'GET /apis/device/credential/c0ffee': () => ({ ...grant, kind: 'transfer' }),
      'GET /apis/account/session': () => null,
    });
    const user = userEvent.setup();
    renderPage('/apps/authoried/transfer?credential=c0ffee');

    expect(await screen.findByText('Demo farm transfers 2 devices to you')).toBeInTheDocument();
    expect(screen.getByText('Transfer of ownership')).toBeInTheDocument();
    expect(await screen.findByText('Please log in first')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept transfer' })).not.toBeInTheDocument();
    // The page stays: a missing session is an answer here, not a reason to leave.
    expect(onSessionExpired).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('login-page')).toHaveTextContent('/login?redirect=%2Fapps%2Fauthoried%2Ftransfer%3Fcredential%3Dc0ffee');
    expect(callsTo(fetchMock, 'POST', '/apis/grant/accept/c0ffee')).toHaveLength(0);
  });

  it('says a used or expired link is unavailable', async () => {
    serve({
      'GET /apis/device/credential/c0ffee': () => ({ id: 'c0ffee', status: 'unavailable' }),
      'GET /apis/account/session': () => profile,
    });
    renderPage();
    expect(await screen.findByText('Link unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
  });

  it('says a link without a credential is unavailable, without asking the server', async () => {
    const fetchMock = serve({});
    renderPage('/apps/authoried/grant');
    expect(await screen.findByText('Link unavailable')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/apis/device/credential/')).toHaveLength(0);
  });

  it('turns a link used up meanwhile into the unavailable page when accepting', async () => {
    serve({
      'GET /apis/device/credential/c0ffee': () => grant,
      'GET /apis/account/session': () => profile,
      'POST /apis/grant/accept/c0ffee': () => refusal(1409, 'Link unavailable', 409),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.getByText('Link unavailable')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
  });
});
