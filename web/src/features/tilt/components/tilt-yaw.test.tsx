import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { weatherCatalogue } from '@/testing/device-fixtures';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { TiltYawView } from './tilt';

vi.mock('@/components/charts/chart', () => ({ default: () => <canvas data-testid="chart-stub" /> }));

function serve(points: { time: number; x: number; y: number; direction: number; tilt: number }[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/apis/poi/tilt/yaw') return jsonResponse({ code: 1404, message: 'The resource does not exist', data: null }, 404);
    return jsonResponse({
      code: 0,
      message: '',
      data: { begin: Number(url.searchParams.get('begin')), end: Number(url.searchParams.get('end')), latest: points[points.length - 1] ?? null, points },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('TiltYawView', () => {
  beforeEach(() => changeLanguage('en_US'));
  const range = { begin: 1_000_000, end: 9_000_000 };

  it('shows where the monitor leans now, over the chosen period', async () => {
    const fetchMock = serve([
      { time: 2_000_000, x: -0.93, y: 1.75, direction: 117.982, tilt: 1.9815 },
      { time: 3_000_000, x: -1.06, y: 1.71, direction: 121.789, tilt: 2.0116 },
    ]);
    renderWithProviders(<TiltYawView deviceId={15} catalogue={weatherCatalogue} range={range} dim="raw" />);

    await waitFor(() => expect(screen.getByTestId('poi-yaw-direction')).toHaveTextContent('121.7°'));
    expect(screen.getByTestId('poi-yaw-tilt')).toHaveTextContent('2.01°');
    expect(await screen.findAllByTestId('chart-stub')).toHaveLength(2);
    const asked = new URL(String(fetchMock.mock.calls[0][0]), 'http://localhost');
    expect(asked.searchParams.get('id')).toBe('15');
    expect(Number(asked.searchParams.get('begin'))).toBe(range.begin);
  });

  it('says why the chart is empty', async () => {
    serve([]);
    renderWithProviders(<TiltYawView deviceId={15} catalogue={weatherCatalogue} range={range} dim="raw" />);

    expect(await screen.findByTestId('poi-chart-empty')).toHaveTextContent('No report with both X and Y tilt in this period.');
  });
});
