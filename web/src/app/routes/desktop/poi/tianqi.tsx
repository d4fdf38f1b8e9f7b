import { WeatherAnalysesCard } from '@/features/weather/components/weather-analyses';
import { WeatherHistoryCard } from '@/features/weather/components/weather-history';
import { WeatherSummary } from '@/features/weather/components/weather-summary';
import { DetailRoute } from './detail';

/** A weather station: the graded weather above the readings, alerts, fire weather and the daily weather after the history. */
export default function Page() {
  return (
    <DetailRoute
      kind="tianqi"
      sections={({ device, catalogue }) => ({
        summary: <WeatherSummary deviceId={device.id} catalogue={catalogue} />,
        // The summary gives the speed with its force and the direction with its sector.
        covered: ['windSpeed', 'windDirection'],
        extra: (
          <>
            <WeatherAnalysesCard deviceId={device.id} catalogue={catalogue} />
            <WeatherHistoryCard deviceId={device.id} />
          </>
        ),
      })}
    />
  );
}
