import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ParamCatalogue } from '@/lib/telemetry/types';
import { weatherCatalogue } from '@/testing/device-fixtures';
import { renderWithProviders } from '@/testing/render';
import { callsTo, serve } from '@/testing/serve';
import { WeatherAnalysesCard } from './weather-analyses';

vi.mock('@/components/charts/chart', () => ({ default: () => <canvas data-testid="chart-stub" /> }));

const answers = {
  'GET /apis/qi/weather/alert': () => ({ alerts: [], checked: ['rainstorm'] }),
  'GET /apis/qi/fwi/statistics': () => ({ days: 0, missing: 30, mean: null, latest: null, max: null, levels: [] }),
  'GET /apis/qi/fwi/history': () => ({ days: [] }),
};

const humidity = { id: 'airHumidity', name: 'Air humidity', unit: '%RH', precision: 0, perNode: false, daily: ['avg' as const], min: 0, max: 100 };

describe('WeatherAnalysesCard', () => {
  it('leaves out the fire weather index of a type without its inputs, without asking for it', async () => {
    const withoutRain: ParamCatalogue = { ...weatherCatalogue, params: [...weatherCatalogue.params.filter((p) => p.id !== 'rainfall'), humidity] };
    const fetchMock = serve(answers);
    renderWithProviders(<WeatherAnalysesCard deviceId={13} catalogue={withoutRain} />);
    expect(await screen.findByTestId('poi-weather-alerts')).toBeInTheDocument();
    expect(screen.queryByTestId('poi-fwi')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/apis/qi/fwi/statistics')).toHaveLength(0);
    expect(callsTo(fetchMock, 'GET', '/apis/qi/fwi/history')).toHaveLength(0);
  });

  it('shows the index of a type that measures temperature, humidity, wind and rain', async () => {
    const full: ParamCatalogue = { ...weatherCatalogue, params: [...weatherCatalogue.params, humidity] };
    const fetchMock = serve(answers);
    renderWithProviders(<WeatherAnalysesCard deviceId={13} catalogue={full} />);
    expect(await screen.findByTestId('poi-fwi')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/apis/qi/fwi/statistics')).toHaveLength(1);
  });
});
