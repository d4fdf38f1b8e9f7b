import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import type { EtRoot, Pulse, RootDepth } from '../types';
import { EtRootTab, eventWindow, InfiltrationTab, RootDepthTab, rootDepthWindows } from './soil-water-tabs';

vi.mock('@/components/charts/chart', () => ({ default: () => <canvas data-testid="chart-stub" /> }));

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 6, 3, 0, 30);

const pulse: Pulse = {
  start: START,
  date: '2026-07-03',
  source: 'irrigation',
  amountMm: 16.88,
  rainMm: 0,
  volumeM3: 140.7,
  frontDepth: 30,
  frontSpeed: 2.26,
  layers: [
    { depth: 10, arrival: START, lagHours: 0, peakTime: START + 4 * HOUR, before: 31.75, peak: 40, rise: 8.25, waterMm: 6.78 },
    { depth: 20, arrival: START + 3 * HOUR, lagHours: 3.17, peakTime: START + 10 * HOUR, before: 28.4, peak: 34.2, rise: 5.8, waterMm: 5.4 },
    { depth: 30, arrival: START + 9 * HOUR, lagHours: 8.83, peakTime: START + 36 * HOUR, before: 23.1, peak: 30.2, rise: 7.1, waterMm: 4.7 },
  ],
};

function serve(answers: (path: string, query: URLSearchParams) => unknown) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const data = answers(url.pathname, url.searchParams);
    if (data === undefined) return jsonResponse({ code: 1404, message: 'The resource does not exist', data: null }, 404);
    return jsonResponse({ code: 0, message: '', data });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const irri = (pulses: Pulse[]) => ({ begin: START - 20 * DAY, end: START + 10 * DAY, rainStation: null, pulses, irrigationMm: 16.88, rainMm: 0, irrigationCount: pulses.length, minAmountMm: 5 });

describe('eventWindow', () => {
  it('runs from the report before the water arrived to the last layer peak', () => {
    expect(eventWindow(pulse, 10)).toEqual({ begin: START - 10 * 60_000, end: START + 36 * HOUR });
  });
});

describe('InfiltrationTab', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('shows the profile of the newest event with its wetting front', async () => {
    const fetchMock = serve((path, query) => {
      if (path === '/apis/poi/shang/irriRecognition') return irri([{ ...pulse, start: START - 5 * DAY, layers: [] }, pulse]);
      if (path === '/apis/poi/shang/infiltration')
        return {
          from: Number(query.get('begin')),
          to: Number(query.get('end')),
          layers: [
            { depth: 10, before: 32, after: 33.7, change: 1.7, waterMm: 2.55 },
            { depth: 20, before: 28.1, after: 32.8, change: 4.7, waterMm: 4.7 },
            { depth: 30, before: 22.7, after: 30.2, change: 7.5, waterMm: 7.5 },
          ],
          totalMm: 14.75,
          pulse: null,
        };
      return undefined;
    });
    renderWithProviders(<InfiltrationTab deviceId={31} reportInterval={10} />);

    await waitFor(() => expect(screen.getByTestId('poi-infiltration-stored')).toHaveTextContent('14.7mm'));
    expect(screen.getByTestId('poi-infiltration-front')).toHaveTextContent('30cmmoving down 2.2 cm/h');
    const row = screen.getByRole('row', { name: /^30 cm/ });
    expect(within(row).getByText('+7.5')).toBeInTheDocument();
    expect(within(row).getByText('after 8.8 h')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /^10 cm/ })).toHaveTextContent('first, at the start');
    const asked = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://localhost')).find((u) => u.pathname.endsWith('/infiltration'));
    expect(Number(asked?.searchParams.get('begin'))).toBe(START - 10 * 60_000);
    expect(Number(asked?.searchParams.get('end'))).toBe(START + 36 * HOUR);
  });

  it('explains that there is nothing without an event', async () => {
    const fetchMock = serve((path) => (path === '/apis/poi/shang/irriRecognition' ? irri([]) : undefined));
    renderWithProviders(<InfiltrationTab deviceId={31} reportInterval={10} />);

    expect(await screen.findByTestId('poi-infiltration-empty')).toHaveTextContent('No irrigation or rain event stored 5 mm or more in this period');
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/infiltration'))).toBe(false);
  });
});

const rootDepth = (depth: number): RootDepth => ({
  begin: 0,
  end: Date.now(),
  rootDepth: depth,
  layers: [
    { depth: 10, days: 4, drawdownDays: 3, meanDayDrop: 0.55, meanNightDrop: 0.1, active: true },
    { depth: 20, days: 4, drawdownDays: 3, meanDayDrop: 0.45, meanNightDrop: 0.15, active: depth >= 20 },
    { depth: 30, days: 0, drawdownDays: 0, meanDayDrop: 0, meanNightDrop: 0, active: false },
  ],
});

describe('rootDepthWindows', () => {
  it('gives weekly 14-day windows, the newest ending now', () => {
    const now = 100 * DAY;
    const windows = rootDepthWindows(now, 3);
    expect(windows).toEqual([
      { begin: now - 28 * DAY, end: now - 14 * DAY },
      { begin: now - 21 * DAY, end: now - 7 * DAY },
      { begin: now - 14 * DAY, end: now },
    ]);
  });
});

describe('RootDepthTab', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('shows the active root depth, the evidence per layer and the weeks before', async () => {
    const fetchMock = serve((path) => (path === '/apis/poi/shang/rootdepth' ? rootDepth(20) : undefined));
    renderWithProviders(<RootDepthTab deviceId={31} nodes={[10, 20, 30]} />);

    await waitFor(() => expect(screen.getByTestId('poi-rootdepth-now')).toHaveTextContent('20cm'));
    expect(screen.getByTestId('poi-rootdepth-now')).toHaveTextContent('Roots take up water at 10 cm, 20 cm');
    expect(screen.getByRole('row', { name: /^10 cm/ })).toHaveTextContent('3 of 4 usable days');
    expect(screen.getByRole('row', { name: /^30 cm/ })).toHaveTextContent('No usable day');
    expect(await screen.findByTestId('chart-stub')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([u]) => String(u).includes('/rootdepth'))).toHaveLength(8);
  });

  it('says why there is no root depth', async () => {
    serve((path) => (path === '/apis/poi/shang/rootdepth' ? { ...rootDepth(0), layers: rootDepth(0).layers.map((l) => ({ ...l, days: 0, active: false })) } : undefined));
    renderWithProviders(<RootDepthTab deviceId={31} nodes={[10, 20, 30]} />);

    expect(await screen.findByTestId('poi-rootdepth-empty')).toHaveTextContent('No usable day in the last 14 days');
    expect(screen.getByTestId('poi-rootdepth-now')).toHaveTextContent('Not found');
    expect(await screen.findByTestId('poi-rootdepth-history-empty')).toHaveTextContent('No layer showed root uptake in the last 8 weeks');
  });
});

const etRoot: EtRoot = {
  configured: true,
  rootDepth: rootDepth(20),
  zone: { depth: 25, rootDepthFound: true, fieldCapacity: 34, moisture: 26.48, relative: 77.9, drought: 'none', refillRelative: 60, deficitMm: 18.8, rawMm: 34 },
  et: { et0: 1.44, kc: 0.735, stage: 'development', etc: 1.06, source: 'observed' },
  projection: { time: 0, date: '2026-12-08', daysUntil: 15, irrigationMm: 34.7, volumeM3: 289.2 },
};

describe('EtRootTab', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('says when to irrigate and how much, from the root zone and the crop water use', async () => {
    serve((path) => (path === '/apis/poi/analysis/et_root' ? etRoot : undefined));
    renderWithProviders(<EtRootTab deviceId={31} onSettings={() => undefined} />);

    await waitFor(() => expect(screen.getByTestId('poi-etroot-next')).toHaveTextContent('In 15 days2026-12-08'));
    const figures = screen.getByTestId('poi-etroot');
    expect(figures).toHaveTextContent('34.7mm289.2 m³ over the planted area');
    expect(figures).toHaveTextContent('No drought · 18.8 mm below field capacity');
    expect(figures).toHaveTextContent('1.06mm/dayET0 1.44 × Kc 0.73, mean of the last 7 days');
    expect(figures).toHaveTextContent('Root zone 0–25 cm (down to the active root depth)');
    expect(screen.getByTestId('chart-stub')).toBeInTheDocument();
  });

  it('asks for the crop when there is no crop coefficient', async () => {
    serve((path) => (path === '/apis/poi/analysis/et_root' ? { ...etRoot, et: { ...etRoot.et, kc: null, etc: null }, projection: null } : undefined));
    renderWithProviders(<EtRootTab deviceId={31} onSettings={() => undefined} />);

    expect(await screen.findByTestId('poi-etroot-no-projection')).toHaveTextContent('Set the crop and its planting date');
    expect(screen.getByTestId('poi-etroot-next')).toHaveTextContent('Cannot be projected yet');
  });

  it('sends people to the soil settings when they are missing', async () => {
    const onSettings = vi.fn();
    serve((path) => (path === '/apis/poi/analysis/et_root' ? { configured: false, rootDepth: null, zone: null, et: null, projection: null } : undefined));
    renderWithProviders(<EtRootTab deviceId={31} onSettings={onSettings} />);

    expect(await screen.findByTestId('poi-etroot-unset')).toHaveTextContent('Enter the soil settings');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open soil settings' }));
    expect(onSettings).toHaveBeenCalled();
  });
});
