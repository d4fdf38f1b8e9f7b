import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MapDevice } from '@/features/devices/types';
import { renderRoutes } from '@/testing/render';
import { insideWeChat, wechatStub } from '@/testing/wechat-stub';
import { DeviceCard } from './device-card';

// Outside WeChat unless a test says otherwise (testing/wechat-stub.ts, set up for every file).

const device: MapDevice = {
  id: 9,
  hashId: 'h9',
  sn: 'DM05000009',
  name: 'East station',
  typeId: 5,
  page: 'tianqi',
  status: 'online',
  group: 'working',
  lng: 116.2,
  lat: 37.45,
  lastReportTime: Date.now() - 120_000,
};

function renderCard(value: MapDevice) {
  return renderRoutes(
    [
      { path: '/', element: <DeviceCard device={value} now={Date.now()} /> },
      { path: '/apps/mobile/poi/:hashId/:deviceId/realtime', element: <p>realtime</p> },
    ],
    { mobile: true },
  );
}

describe('DeviceCard', () => {
  it('offers Amap and Baidu navigation to the device and opens it', async () => {
    const user = userEvent.setup();
    const { router } = renderCard(device);

    expect(screen.getByText('East station')).toBeInTheDocument();
    expect(screen.getByText(/自动气象站 · SN DM05000009/)).toBeInTheDocument();
    expect(screen.getByText(/2 分钟前/)).toBeInTheDocument();
    const amap = screen.getByRole('link', { name: '高德地图' });
    const baidu = screen.getByRole('link', { name: '百度地图' });
    expect(amap.getAttribute('href')).toMatch(/^https:\/\/uri\.amap\.com\/marker\?position=116\.\d+,37\.\d+&name=East%20station$/);
    expect(baidu.getAttribute('href')).toMatch(/^https:\/\/api\.map\.baidu\.com\/marker\?location=37\.\d+,116\.\d+&title=East%20station/);
    expect(amap).toHaveAttribute('target', '_blank');

    await user.click(screen.getByRole('button', { name: /查看详情/ }));
    expect(router.state.location.pathname).toBe('/apps/mobile/poi/h9/9/realtime');
  });

  it('has no navigation without a location', () => {
    renderCard({ ...device, lng: null, lat: null, lastReportTime: null });
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText(/--/)).toBeInTheDocument();
  });

  it('inside WeChat opens WeChat’s own map at the device, in GCJ-02', async () => {
    insideWeChat();
    const user = userEvent.setup();
    renderCard(device);

    expect(screen.queryByRole('link', { name: '高德地图' })).toBeNull();
    await user.click(screen.getByRole('button', { name: '打开地图' }));
    expect(wechatStub.opened).toHaveLength(1);
    const target = wechatStub.opened[0] as { latitude: number; longitude: number; name: string };
    expect(target.name).toBe('East station');
    // The national offset moves a point near Beijing a few hundred metres.
    expect(Math.abs(target.longitude - 116.2)).toBeGreaterThan(0.001);
    expect(Math.abs(target.longitude - 116.2)).toBeLessThan(0.01);
    expect(Math.abs(target.latitude - 37.45)).toBeLessThan(0.01);
  });
});
