import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useOpenMobileDevice } from '@/lib/mobile-back';
import { device, serveDevice } from '@/testing/device-fixtures';
import { renderRoutes } from '@/testing/render';
import { MobileDeviceLayout } from './mobile-device-layout';

function Opener({ label }: { label: string }) {
  const open = useOpenMobileDevice();
  return <button onClick={() => open({ hashId: 'h7', id: 7 })}>{label}</button>;
}

function renderDevice(path: string) {
  return renderRoutes(
    [
      { path: '/apps/mobile/messages', element: <Opener label="open from messages" /> },
      { path: '/apps/mobile/devices', element: <Opener label="open from devices" /> },
      {
        path: '/apps/mobile/poi/:hashId/:deviceId',
        element: <MobileDeviceLayout />,
        children: [
          { path: 'realtime', element: <p>realtime</p> },
          { path: 'history', element: <p>history</p> },
          { path: 'about', element: <p>about</p> },
          { path: 'about/profile', element: <p>profile</p> },
        ],
      },
    ],
    { mobile: true, path },
  );
}

const back = () => document.querySelector('.adm-nav-bar-back') as HTMLElement;

describe('MobileDeviceLayout', () => {
  beforeEach(() => void serveDevice());

  it('returns to the messages tab with its filters, after moving between the device’s sections', async () => {
    const user = userEvent.setup();
    const { router } = renderDevice('/apps/mobile/messages?unread=true&level=alarm');

    await user.click(screen.getByRole('button', { name: 'open from messages' }));
    expect(router.state.location.pathname).toBe('/apps/mobile/poi/h7/7/realtime');
    expect(document.querySelector('.adm-nav-bar-title')).not.toHaveTextContent('East field station');
    await user.click(screen.getByRole('tab', { name: '历史数据' }));
    expect(await screen.findByText('history')).toBeInTheDocument();
    // History and about are titled with the device's name.
    await waitFor(() => expect(document.querySelector('.adm-nav-bar-title')).toHaveTextContent('East field station'));
    await user.click(screen.getByRole('tab', { name: '关于设备' }));
    expect(await screen.findByText('about')).toBeInTheDocument();

    await user.click(back());
    expect(router.state.location.pathname).toBe('/apps/mobile/messages');
    expect(router.state.location.search).toBe('?unread=true&level=alarm');
  });

  it('goes from the profile back to about, and from there to the tab the device was opened from', async () => {
    const user = userEvent.setup();
    const { router } = renderDevice('/apps/mobile/messages?kind=warning');
    await user.click(screen.getByRole('button', { name: 'open from messages' }));
    await act(() => router.navigate('/apps/mobile/poi/h7/7/about/profile', { state: router.state.location.state }));
    expect(await screen.findByText('profile')).toBeInTheDocument();

    await user.click(back());
    expect(router.state.location.pathname).toBe('/apps/mobile/poi/h7/7/about');
    await user.click(back());
    expect(router.state.location.pathname + router.state.location.search).toBe('/apps/mobile/messages?kind=warning');
  });

  it('returns to the devices tab with its filters, or to the devices tab when opened by its address', async () => {
    const user = userEvent.setup();
    const { router } = renderDevice('/apps/mobile/devices?status=offline');
    await user.click(screen.getByRole('button', { name: 'open from devices' }));
    await user.click(back());
    expect(router.state.location.pathname + router.state.location.search).toBe('/apps/mobile/devices?status=offline');

    const direct = renderDevice('/apps/mobile/poi/h7/7/history');
    await user.click(direct.container.querySelector('.adm-nav-bar-back') as HTMLElement);
    expect(direct.router.state.location.pathname + direct.router.state.location.search).toBe('/apps/mobile/devices');
  });

  it('finds the id of a device addressed by its hash alone (a rain gauge link) and keeps the section', async () => {
    const asked: string[] = [];
    serveDevice({
      info: device({ id: 29, hashId: 'rg1', page: 'pluviometer' }),
      extra: (path) => {
        asked.push(path);
        return undefined;
      },
    });
    const { router } = renderDevice('/apps/mobile/poi/rg1/0/realtime');
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/mobile/poi/rg1/29/realtime'));
    expect(await screen.findByText('realtime')).toBeInTheDocument();
    expect(asked).toContain('/apis/poi/info?hashId=rg1');
    expect(asked.some((p) => p.includes('id=0') || p.includes('/poi/0/'))).toBe(false);
  });

  it('goes to the devices tab when the hash names no device of the caller', async () => {
    serveDevice({ info: null });
    const { router } = renderDevice('/apps/mobile/poi/nosuch/0/history');
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/mobile/devices'));
  });
});
