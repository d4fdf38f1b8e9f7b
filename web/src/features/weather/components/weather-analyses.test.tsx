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

  it('shows each signal with its source, the reading that decided it and the types that need a feed', async () => {
    serve({
      ...answers,
      'GET /apis/qi/weather/alert': () => ({
        time: 1_780_000_000_000,
        alerts: [
          { type: 'typhoon', level: 3, code: '03', color: 'orange', value: 0, unit: '', basis: 'feed', source: 'feed',
            headline: '台风橙色预警信号', area: '衡水市', sender: 'a@b', expires: null, day: null },
          { type: 'coldWave', level: 2, code: '02', color: 'yellow', value: 10, unit: '°C', basis: 'tempDrop24h', source: 'station' },
          { type: 'frost', level: 1, code: '01', color: 'blue', value: -0.5, unit: '°C', basis: 'forecastTempMin', source: 'forecast',
            day: 1_780_070_400_000 },
        ],
        checked: ['gale', 'coldWave'],
        checks: [{ type: 'frost', by: ['station', 'forecast'] }, { type: 'hail', by: [] }],
        forecast: true,
        feed: 'none',
        needFeed: ['hail', 'fog'],
      }),
    });
    renderWithProviders(<WeatherAnalysesCard deviceId={13} catalogue={weatherCatalogue} />);
    const cold = await screen.findByTestId('poi-weather-alert-coldWave-station');
    expect(cold).toHaveTextContent('寒潮02（黄色）');
    expect(cold).toHaveTextContent('本站实测');
    expect(cold).toHaveTextContent('24小时日最低气温降幅：10 °C');
    expect(screen.getByTestId('poi-weather-alert-typhoon-feed')).toHaveTextContent('台风橙色预警信号 · 衡水市');
    expect(screen.getByTestId('poi-weather-alert-frost-forecast')).toHaveTextContent('预报最低气温：-0.5 °C · 预报日期');
    const checks = screen.getByTestId('poi-weather-alerts-checks');
    expect(checks).toHaveTextContent('由本站传感器判定：大风、寒潮');
    expect(checks).toHaveTextContent('预报判定：霜冻');
    expect(checks).toHaveTextContent('需要配置上游预警发布（--warning-feed）才能显示：冰雹、大雾');
  });
});
