import { useTranslation } from 'react-i18next';
import type { PoiKind } from '@/features/poi/types';
import { SoilAnalysesCard } from '@/features/soil/components/soil-analyses';
import { SoilProfileView } from '@/features/soil/components/soil-profile-view';
import { SoilWeatherCard } from '@/features/soil/components/weather-and-crop';
import { DetailRoute } from './detail';

/** A soil moisture station: the depth profile in the history, the soil analyses, moisture by day, the plot's weather and crop after it. */
export function SoilDetailRoute({ kind }: { kind: Extract<PoiKind, 'moisture' | 'zhi-shang' | 'dcr004'> }) {
  const { t } = useTranslation('poi');
  return (
    <DetailRoute
      kind={kind}
      sections={({ device, catalogue, intro }) => ({
        views: [{ key: 'profile', label: t('soil.view'), render: (context) => <SoilProfileView {...context} /> }],
        extra: (
          <>
            <SoilAnalysesCard deviceId={device.id} nodes={catalogue.nodes} reportInterval={intro?.interval} />
            <SoilWeatherCard deviceId={device.id} />
          </>
        ),
      })}
    />
  );
}
