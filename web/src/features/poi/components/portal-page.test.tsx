import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderRoutes } from '@/testing/render';
import { tokenFromHash } from '../api/portal';
import { PortalPage } from './portal-page';

const TOKEN = 'm5m6do0H7rc9OnFZ218H-2UT2jHhagYFJRWPuHEFz3c';

const missing = {
  code: 1404,
  message: 'The page does not exist',
  error: { key: 'portal.notFound' },
  data: {
    code: 404,
    message: { title: 'The page does not exist', content: "This link is wrong, or the device's owner turned its portal off." },
    redirect: { to: '/login', seconds: 3 },
  },
};

function portalRoutes() {
  return [
    { path: '/uni-portal/:sn', element: <PortalPage sn="DM10000019" token={TOKEN} /> },
    { path: '/login', element: <p>login page</p> },
  ];
}

describe('PortalPage', () => {
  beforeEach(() => changeLanguage('en_US'));
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('reads the token from the fragment only', () => {
    expect(tokenFromHash(`#k=${TOKEN}`)).toBe(TOKEN);
    expect(tokenFromHash('')).toBe('');
    expect(tokenFromHash('#other=1')).toBe('');
  });

  it('sends the link token on every call and shows the device, view only', async () => {
    const seen: { url: string; token: string | null }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        seen.push({ url, token: new Headers(init?.headers).get('X-Portal-Token') });
        if (url.endsWith('/metadata')) return jsonResponse({ code: 0, message: '', data: { params: [{ id: 'flowRate', name: 'Flow rate', unit: 'm³/h', precision: 1 }], nodes: [] } });
        if (url.includes('/commands/definitions')) return jsonResponse({ code: 0, message: '', data: { allowed: false, commands: [{ name: 'close', label: 'Close valve', inputs: [], maxSize: 64 }] } });
        if (url.includes('/commands')) return jsonResponse({ code: 0, message: '', data: { list: [], total: 0 } });
        if (url.includes('/uni/integration/theme')) return jsonResponse({ code: 0, message: '', data: { title: 'Device portal', primaryColor: '#3961FF', logo: '' } });
        return jsonResponse({
          code: 0,
          message: '',
          data: {
            state: { code: 0, message: { title: 'North valve', content: '' } },
            device: { sn: 'DM10000019', name: 'North valve', typeName: 'Irrigation valve controller', model: 'YY001', category: 'irrigation', status: 'online', statusName: 'Online', battery: 80, lowBattery: false, signal: null, lastReportTime: 1_790_000_000_000 },
            latest: [{ param: 'flowRate', name: 'Flow rate', unit: 'm³/h', precision: 1, node: 0, time: 1_790_000_000_000, value: 21.5 }],
            allowControl: false,
            timezone: 'Asia/Shanghai',
          },
        });
      }),
    );
    renderRoutes(portalRoutes(), { path: '/uni-portal/DM10000019' });
    expect(await screen.findByText('North valve')).toBeInTheDocument();
    expect(await screen.findByText('21.5')).toBeInTheDocument();
    expect(await screen.findByText(/for looking only/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Close valve/ })).toBeDisabled();
    const portalCalls = seen.filter((c) => c.url.includes('/apis/uni/device/'));
    expect(portalCalls.length).toBeGreaterThanOrEqual(3);
    expect(portalCalls.every((c) => c.token === TOKEN)).toBe(true);
    expect(portalCalls.every((c) => !c.url.includes(TOKEN))).toBe(true);
  });

  it('says the page does not exist and goes to the login page after the countdown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(missing, 404)),
    );
    const { router } = renderRoutes(portalRoutes(), { path: '/uni-portal/DM10000019' });
    expect(await screen.findByText('The page does not exist')).toBeInTheDocument();
    expect(screen.getByTestId('portal-redirect')).toHaveTextContent('Going to the login page in 3 seconds');
    for (let second = 0; second < 4; second += 1) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000);
      });
    }
    expect(router.state.location.pathname).toBe('/login');
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });
});
