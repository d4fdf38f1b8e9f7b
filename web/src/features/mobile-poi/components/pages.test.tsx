import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { DAY } from '@/lib/time-range';
import { device, serveDevice } from '@/testing/device-fixtures';
import { renderRoutes, renderWithProviders as render } from '@/testing/render';
import { insideWeChat, wechatStub } from '@/testing/wechat-stub';
import { MobileAboutPage } from './about-page';
import { MobileHistoryPage } from './history-page';
import { Gallery } from './kinds';
import { MobileRealtimePage } from './realtime-page';

// jsdom has no canvas: the chart module is replaced, everything around it is real.
vi.mock('@/components/charts/chart', () => ({ default: () => <canvas data-testid="chart-stub" /> }));

// Outside WeChat unless a test says otherwise (testing/wechat-stub.ts, set up for every file; the real
// hooks run on top of it).

const base = '/apps/mobile/poi/:hashId/:deviceId';

function renderAt(path: string) {
  return renderRoutes(
    [
      { path: `${base}/realtime`, element: <MobileRealtimePage /> },
      { path: `${base}/realtime/:type`, element: <MobileRealtimePage /> },
      { path: `${base}/history`, element: <MobileHistoryPage /> },
      { path: `${base}/about`, element: <MobileAboutPage /> },
    ],
    { path, mobile: true },
  );
}

describe('phone device pages', () => {
  beforeEach(() => {
    changeLanguage('en_US');
  });

  it("sends the realtime index to the device's own type and shows the weather the server graded", async () => {
    serveDevice({ extra: (path) => (path.startsWith('/apis/rules') ? { list: [], total: 0 } : undefined) });
    const { router } = renderAt('/apps/mobile/poi/abc123/13/realtime');
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/mobile/poi/abc123/13/realtime/tianqi'));
    expect(await screen.findByTestId('mpoi-device-name')).toHaveTextContent('East field station');
    expect(await screen.findByText('Level 4')).toBeInTheDocument();
    expect(screen.getByTestId('mpoi-air-temp')).toHaveTextContent('18.3°C');
    expect(screen.getByTestId('mpoi-wind-direction')).toHaveTextContent('West');
    expect(screen.getByTestId('mpoi-rain-class')).toHaveTextContent('4.6mmLight rain');
    expect(screen.getByTestId('mpoi-air-quality')).toHaveTextContent('Lightly polluted');
    expect(screen.getByTestId('mpoi-figure-pm25')).toHaveTextContent('80µg/m³');
  });

  it('opens the soil moisture and weather station as meteorological-moisture, whatever type the address names', async () => {
    serveDevice({ info: device({ typeId: 21, page: 'zhi-shang' }) });
    const { router } = renderAt('/apps/mobile/poi/abc123/13/realtime/tianqi');
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/mobile/poi/abc123/13/realtime/meteorological-moisture'));
  });

  it("shows the server's charging advice when the battery is low", async () => {
    serveDevice({ indicator: { battery: 3.1, lowBattery: true, advice: 'Charge the battery for at least 4 hours' } });
    renderAt('/apps/mobile/poi/abc123/13/realtime/tianqi');
    expect(await screen.findByText('Charge the battery for at least 4 hours')).toBeInTheDocument();
  });

  it('draws the history and asks again for 7 days and for daily figures', async () => {
    const fetchMock = serveDevice();
    const user = userEvent.setup();
    renderAt('/apps/mobile/poi/abc123/13/history');
    expect(await screen.findByTestId('chart-stub')).toBeInTheDocument();
    const history = () =>
      fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost')).filter((url) => url.pathname.endsWith('/datapoints/v3'));
    const last = () => history()[history().length - 1].searchParams;
    expect(Number(last().get('end')) - Number(last().get('begin'))).toBe(DAY);
    expect(last().get('params')).toBe('airTemp');

    await user.click(screen.getByText('7 days'));
    await waitFor(() => expect(Number(last().get('end')) - Number(last().get('begin'))).toBe(7 * DAY));
    await user.click(screen.getByText('Daily'));
    await waitFor(() => expect(last().get('dim')).toBe('daily'));
    await user.click(screen.getByText('Wind speed'));
    await waitFor(() => expect(last().get('params')).toBe('windSpeed'));
    expect(await screen.findByTestId('chart-stub')).toBeInTheDocument();
  });

  it('says whether the data service and the warranty are still active', async () => {
    serveDevice();
    renderAt('/apps/mobile/poi/abc123/13/about');
    await waitFor(() => expect(screen.getByTestId('mpoi-about-service')).toHaveTextContent('Active'));
    expect(screen.getByTestId('mpoi-about-warranty')).toHaveTextContent('Expired');
    expect(screen.getByTestId('mpoi-about-sn')).toHaveTextContent('DM07000013');
    expect(screen.getByText('37.45000, 116.20000')).toBeInTheDocument();
  });

  it('offers the 高德/百度 choice outside WeChat', async () => {
    serveDevice();
    const user = userEvent.setup();
    renderAt('/apps/mobile/poi/abc123/13/about');
    await user.click(await screen.findByTestId('mpoi-navigate'));
    expect(await screen.findByText('高德地图')).toBeInTheDocument();
  });

  it('asks WeChat to open the place in GCJ-02, as Chinese maps draw, when it is ready', async () => {
    insideWeChat();
    serveDevice();
    const user = userEvent.setup();
    renderAt('/apps/mobile/poi/abc123/13/about');
    await user.click(await screen.findByTestId('mpoi-navigate'));
    await waitFor(() => expect(wechatStub.opened).toHaveLength(1));
    const target = wechatStub.opened[0] as { latitude: number; longitude: number; name: string };
    // The national offset moves a point near Beijing a few hundred metres.
    expect(target.name).toBe('East field station');
    expect(Math.abs(target.longitude - 116.2)).toBeGreaterThan(0.001);
    expect(Math.abs(target.longitude - 116.2)).toBeLessThan(0.01);
    expect(Math.abs(target.latitude - 37.45)).toBeLessThan(0.01);
    expect(screen.queryByText('高德地图')).not.toBeInTheDocument();
  });

  const images = [3, 2, 1].map((id) => ({ id, contentType: 'image/jpeg', size: 1000, time: Date.now() - id * 3_600_000, url: '' }));
  const serveCamera = () =>
    serveDevice({ info: device({ typeId: 20, page: 'ibiosense' }), extra: (path) => (path.startsWith('/apis/poi/13/images?') ? images : undefined) });

  it('opens a tapped camera picture in WeChat’s viewer, with every picture of the gallery', async () => {
    insideWeChat();
    serveCamera();
    const user = userEvent.setup();
    render(<Gallery deviceId={13} />);
    const thumbs = await screen.findAllByTestId('mpoi-image-thumb');
    await user.click(thumbs[1]);
    expect(wechatStub.previewed).toEqual([{ current: '/apis/poi/13/images/1', urls: ['/apis/poi/13/images/3', '/apis/poi/13/images/2', '/apis/poi/13/images/1'] }]);
    expect(document.querySelector('.adm-image-viewer-content')).toBeNull();
    await user.click(screen.getByTestId('mpoi-image-latest'));
    expect(wechatStub.previewed[1]).toMatchObject({ current: '/apis/poi/13/images/3' });
  });

  it('opens a tapped camera picture in the app’s own viewer outside WeChat', async () => {
    serveCamera();
    const user = userEvent.setup();
    render(<Gallery deviceId={13} />);
    await user.click((await screen.findAllByTestId('mpoi-image-thumb'))[0]);
    await waitFor(() => expect(document.querySelector('.adm-image-viewer-content')).not.toBeNull());
    expect(wechatStub.previewed).toEqual([]);
  });
});
