import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { device, NOW, serveDevice, weatherNow } from '@/testing/device-fixtures';
import { renderRoutes } from '@/testing/render';
import PluviometerPage from './pluviometer';
import TianqiPage from './tianqi';

// jsdom has no canvas: the chart module is replaced, everything around it is real.
vi.mock('@/components/charts/chart', () => ({ default: () => <canvas data-testid="chart-stub" /> }));

function renderPage(path = '/apps/poi/tianqi/abc123/13') {
  return renderRoutes(
    [
      { path: '/apps/poi/tianqi/:hashId/:deviceId', element: <TianqiPage /> },
      { path: '/apps/poi/pluviometer/:hashId', element: <PluviometerPage /> },
      { path: '/apps/devices', element: <div>device list</div> },
    ],
    { path },
  );
}

describe('the device detail routes', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('shows who the device is, how it is doing and where it is', async () => {
    // The fixtures are timed from when they were loaded, which on a busy machine can be minutes ago.
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    serveDevice();
    renderPage();

    expect(await screen.findByTestId('poi-device-name')).toHaveTextContent('East field station');
    expect(screen.getByText(/SN DM07000013/)).toHaveTextContent('Weather and air quality station (TQA012)');
    expect(screen.getByText('Online')).toBeInTheDocument();
    expect(screen.getByText('12.7 V')).toBeInTheDocument();
    expect(screen.getByText('-85 dBm')).toBeInTheDocument();
    expect(screen.getByTestId('poi-last-report')).toHaveTextContent('5 minutes ago');
    expect(screen.getAllByText('East field')).not.toHaveLength(0);
    expect(screen.getByRole('button', { name: /Navigate/ })).toBeInTheDocument();
  });

  it('shows the weather as the server grades it: wind force and sector, rain class, air-quality grade', async () => {
    const fetchMock = serveDevice();
    renderPage();

    const summary = await screen.findByTestId('poi-weather-summary');
    await waitFor(() => expect(within(summary).getByTestId('poi-wind-level')).toHaveTextContent('Level 4'));
    expect(within(summary).getByTestId('poi-wind-level')).toHaveTextContent('Moderate breeze · 5.5 m/s');
    expect(within(summary).getByTestId('poi-wind-direction')).toHaveTextContent('West270°');
    expect(within(summary).getByTestId('poi-rain-class')).toHaveTextContent('Light rain4.6 mm');
    expect(within(summary).getByTestId('poi-air-quality')).toHaveTextContent('Lightly polluted');
    expect(within(summary).getByTestId('poi-air-quality')).toHaveTextContent('Primary pollutant: PM2.5');
    // Nothing is summed from the history for these figures.
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/datapoints/v3') && url.includes('params=rainfall&'))).toEqual([]);
  });

  it('takes the grades from the server, not from its own copy of the thresholds', async () => {
    serveDevice({
      extra: (path) =>
        path === '/apis/qi/13/data/realtime'
          ? {
              ...weatherNow,
              wind: { speed: 40, level: 13, levelMin: 37, levelMax: 41.5, direction: 10, sector: 'N' },
              rain: { ...weatherNow.rain, rain24h: 260, class24h: 'severe storm' },
              airQuality: { grade: 1, name: 'excellent', pm25: 1, pm10: 1, primary: ['pm25', 'pm10'] },
            }
          : undefined,
    });
    renderPage();

    const summary = await screen.findByTestId('poi-weather-summary');
    await waitFor(() => expect(within(summary).getByTestId('poi-wind-level')).toHaveTextContent('Level 13'));
    expect(within(summary).getByTestId('poi-wind-level')).toHaveTextContent('Hurricane force · 40 m/s');
    expect(within(summary).getByTestId('poi-wind-direction')).toHaveTextContent('North10°');
    expect(within(summary).getByTestId('poi-rain-class')).toHaveTextContent('Severe rainstorm260 mm');
    // Excellent air names no primary pollutant.
    expect(within(summary).getByTestId('poi-air-quality')).toHaveTextContent('ExcellentNo primary pollutant');
  });

  it('says so when the station has no wind or air reading yet', async () => {
    serveDevice({ extra: (path) => (path === '/apis/qi/13/data/realtime' ? { ...weatherNow, wind: null, rain: null, airQuality: null } : undefined) });
    renderPage();

    const summary = await screen.findByTestId('poi-weather-summary');
    await waitFor(() => expect(within(summary).getByTestId('poi-wind-level')).toHaveTextContent('--'));
    expect(within(summary).getByTestId('poi-air-quality')).toHaveTextContent('--');
  });

  it('shows readings truncated to the catalogue precision, with units, and draws the history', async () => {
    serveDevice();
    renderPage();

    const tiles = await screen.findAllByTestId('poi-reading');
    const air = tiles.find((tile) => tile.textContent?.startsWith('Air temperature'));
    expect(air).toHaveTextContent('18.3°C'); // 18.37 cut, not rounded, to one decimal
    expect(tiles.some((tile) => tile.textContent?.startsWith('Battery'))).toBe(false); // it is in the header
    expect(await screen.findAllByTestId('chart-stub')).not.toHaveLength(0);
    expect(screen.queryByTestId('poi-chart-empty')).not.toBeInTheDocument();
  });

  it('gives the charging advice when the battery is low', async () => {
    serveDevice({ indicator: { battery: 3.1, lowBattery: true, advice: 'Battery voltage is under 3.2 V: charge it for at least 4 hours' } });
    renderPage();

    expect(await screen.findByRole('alert')).toHaveTextContent('charge it for at least 4 hours');
  });

  it('hides editing and disables the download when the caller may not', async () => {
    serveDevice({ info: device({ right: { owner: false, rename: false, settings: false, export: false } }) });
    renderPage();

    await screen.findByTestId('poi-device-name');
    expect(screen.queryByRole('button', { name: /Edit device/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Download data/ })).toBeDisabled();
    expect(screen.queryByTestId('poi-settings')).not.toBeInTheDocument();
  });

  it('says when the device does not exist or is not yours', async () => {
    serveDevice({ info: null });
    renderPage();

    expect(await screen.findByText('Device not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the device list' })).toHaveAttribute('href', '/apps/devices');
  });

  it('loads a rain gauge by its hash and sends a device of another kind to its own page', async () => {
    const fetchMock = serveDevice();
    const { router } = renderPage('/apps/poi/pluviometer/abc123');

    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/poi/tianqi/abc123/13'));
    expect(String(fetchMock.mock.calls[0][0])).toContain('/apis/poi/info?hashId=abc123');
    expect(await screen.findByTestId('poi-device-name')).toHaveTextContent('East field station');
  });
});
