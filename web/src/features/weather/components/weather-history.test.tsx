import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { serve } from '@/testing/serve';
import { WeatherHistoryCard } from './weather-history';

const day = {
  time: 1_780_000_000_000, date: '2026-05-28', complete: true, tempMax: 27.46, tempMin: 15.04, tempAvg: 21, humidityAvg: 60.4, rain: 12.6,
  rainClass: 'moderate', windAvg: 2, windMax: 8.2, windLevel: 5, pressureAvg: 1008.26, radiation: 251.4, et0: 4.567,
};

describe('WeatherHistoryCard', () => {
  it('shows each day with its units (cut, as everywhere), classes and force', async () => {
    serve({ 'GET /apis/qi/data/history': () => ({ begin: 0, end: 1, days: [day] }) });
    renderWithProviders(<WeatherHistoryCard deviceId={3} />);
    const table = await screen.findByTestId('poi-weather-history');
    expect(table).toHaveTextContent('27.4 °C');
    expect(table).toHaveTextContent('12.6 mm · 中雨');
    expect(table).toHaveTextContent('8.2 m/s · 5级');
    expect(table).toHaveTextContent('1008.2 hPa');
    expect(table).toHaveTextContent('4.56 mm');
  });

  it('says when there is no day yet', async () => {
    serve({ 'GET /apis/qi/data/history': () => ({ begin: 0, end: 1, days: [] }) });
    renderWithProviders(<WeatherHistoryCard deviceId={3} />);
    expect(await screen.findByTestId('poi-weather-history-empty')).toHaveTextContent('这段时间还没有数据');
  });
});
