import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { weatherCatalogue } from '@/testing/device-fixtures';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { RainSummary } from './rain-summary';
import { RainfallView } from './rainfall-view';

vi.mock('@/components/charts/chart', () => ({ default: () => <canvas data-testid="chart-stub" /> }));

const NOW = Date.now();
const HOUR = 3_600_000;
const criteria = [
  { level: 1, code: '01', color: 'blue', hours: 12, mm: 50 },
  { level: 2, code: '02', color: 'yellow', hours: 6, mm: 50 },
  { level: 3, code: '03', color: 'orange', hours: 3, mm: 50 },
  { level: 4, code: '04', color: 'red', hours: 3, mm: 100 },
];

const answers: Record<string, unknown> = {
  '/apis/poi/9/pluviometer/latest': {
    time: NOW - 600_000,
    rainfall: 22.5,
    rain1h: 112.5,
    rain24h: 112.5,
    today: 112.5,
    class1h: 'storm',
    class24h: 'heavy storm',
    lastRain: NOW - 600_000,
    warning: { level: 4, code: '04', color: 'red' },
  },
  '/apis/poi/9/pluviometer/stats': {
    time: NOW,
    rain1h: 112.5,
    rain24h: 112.5,
    today: 112.5,
    yesterday: 3.2,
    week: 120.4,
    month: 131.5,
    year: 456.7,
    rainDays: 5,
    maxDay: { time: NOW, date: '2026-07-12', mm: 112.5, class: 'heavy storm' },
  },
  '/apis/poi/9/pluviometer/early-warning': {
    time: NOW,
    current: { level: 4, code: '04', color: 'red' },
    rain1h: 112.5,
    rain3h: 112.5,
    rain6h: 112.5,
    rain12h: 113.1,
    rain24h: 112.5,
    criteria,
    episodes: [
      { level: 4, code: '04', color: 'red', start: NOW - HOUR, end: NOW - 600_000, peak3h: 112.5, peak6h: 112.5, peak12h: 112.5, ongoing: true },
      { level: 1, code: '01', color: 'blue', start: NOW - 5 * 24 * HOUR, end: NOW - 5 * 24 * HOUR + HOUR, peak3h: 20, peak6h: 40, peak12h: 52, ongoing: false },
    ],
    highest: { level: 4, code: '04', color: 'red' },
  },
  '/apis/poi/9/pluviometer/realtime': {
    begin: NOW - 24 * HOUR,
    end: NOW,
    points: [[NOW - 600_000, 22.5]],
    cumulative: [[NOW - 600_000, 112.5]],
    hourly: [{ time: NOW - HOUR, label: '', mm: 112.5, class: 'storm' }],
    total: 112.5,
  },
};

function serve(extra: Record<string, unknown> = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const data = { ...answers, ...extra }[url.pathname];
    if (url.pathname === '/apis/poi/9/pluviometer/stats_data') {
      const dim = url.searchParams.get('dim');
      return jsonResponse({
        code: 0,
        message: '',
        data: {
          begin: Number(url.searchParams.get('begin')),
          end: Number(url.searchParams.get('end')),
          dim,
          list: [
            { time: NOW - 2 * HOUR, label: '', mm: null },
            { time: NOW - HOUR, label: '', mm: 112.5, class: dim === 'hour' ? 'storm' : 'heavy storm' },
          ],
          total: 112.5,
        },
      });
    }
    if (data === undefined) return jsonResponse({ code: 1404, message: 'The resource does not exist', data: null }, 404);
    return jsonResponse({ code: 0, message: '', data });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const calls = (fetchMock: ReturnType<typeof serve>) => fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost'));

describe('RainSummary', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('shows the totals, classes and signal the server computed', async () => {
    const fetchMock = serve();
    renderWithProviders(<RainSummary deviceId={9} />);

    await waitFor(() => expect(screen.getByTestId('poi-rain-1h')).toHaveTextContent('112.5mmRainstorm'));
    expect(screen.getByTestId('poi-rain-24h')).toHaveTextContent('112.5mmHeavy rainstorm');
    await waitFor(() => expect(screen.getByTestId('poi-rain-12h')).toHaveTextContent('113.1mm'));
    expect(screen.getByTestId('poi-rain-today')).toHaveTextContent('Yesterday 3.2 mm');
    expect(screen.getByTestId('poi-rain-7d')).toHaveTextContent('120.4mm');
    expect(screen.getByTestId('poi-rain-month')).toHaveTextContent('131.5mm5 rain days');
    expect(screen.getByTestId('poi-rain-year')).toHaveTextContent('Wettest day 07-12: 112.5 mm');
    expect(screen.getByTestId('poi-rain-warning')).toHaveTextContent('Rainstorm warning 04 (red)');
    expect(await screen.findByTestId('poi-rain-recent')).toHaveTextContent('Last 24 hours: 112.5 mm');
    // Nothing is summed in the browser: no history of raw readings is asked for.
    expect(calls(fetchMock).filter((url) => url.pathname.includes('/datapoints/'))).toEqual([]);
  });

  it('says when it has not rained for a week and nothing is in force', async () => {
    serve({
      '/apis/poi/9/pluviometer/latest': { ...(answers['/apis/poi/9/pluviometer/latest'] as object), rain1h: 0, class1h: 'none', lastRain: null, warning: { level: 0, code: '', color: 'none' } },
      '/apis/poi/9/pluviometer/realtime': { begin: NOW - 24 * HOUR, end: NOW, points: [], cumulative: [], hourly: [], total: 0 },
    });
    renderWithProviders(<RainSummary deviceId={9} />);

    await waitFor(() => expect(screen.getByTestId('poi-rain-1h')).toHaveTextContent('0mmNo rain'));
    expect(screen.getByTestId('poi-rain-last')).toHaveTextContent('No rain in the last 7 days');
    expect(screen.getByTestId('poi-rain-warning')).toHaveTextContent('No rainstorm warning');
    expect(await screen.findByTestId('poi-rain-recent-dry')).toHaveTextContent('No rain in the last 24 hours.');
  });
});

describe('RainfallView', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('draws the server buckets and its total, with the highest signal of the period', async () => {
    const fetchMock = serve();
    const range = { begin: Date.now() - 3 * 24 * HOUR + 60_000, end: Date.now() };
    renderWithProviders(<RainfallView deviceId={9} catalogue={weatherCatalogue} range={range} dim="raw" />);

    await waitFor(() => expect(screen.getByTestId('poi-rain-total')).toHaveTextContent('112.5 mm'));
    expect(await screen.findByTestId('chart-stub')).toBeInTheDocument();
    const peak = await screen.findByTestId('poi-rain-peak');
    expect(within(peak).getByText('Rainstorm warning 04 (red)')).toBeInTheDocument();
    const series = calls(fetchMock).find((url) => url.pathname.endsWith('/stats_data'));
    expect(series?.searchParams.get('dim')).toBe('hour');
    expect(Number(series?.searchParams.get('begin'))).toBe(range.begin);
    // Warning spells back to the start of the period: 3 days.
    expect(calls(fetchMock).find((url) => url.pathname.endsWith('/early-warning'))?.searchParams.get('days')).toBe('3');
  });

  it('asks for days over a month and leaves out spells before the period', async () => {
    const fetchMock = serve();
    const range = { begin: NOW - 2 * 24 * HOUR, end: NOW - 24 * HOUR };
    renderWithProviders(<RainfallView deviceId={9} catalogue={weatherCatalogue} range={range} dim="daily" />);

    await waitFor(() => expect(screen.getByTestId('poi-rain-peak')).toHaveTextContent('No rainstorm warning'));
    expect(calls(fetchMock).find((url) => url.pathname.endsWith('/stats_data'))?.searchParams.get('dim')).toBe('day');
  });
});
