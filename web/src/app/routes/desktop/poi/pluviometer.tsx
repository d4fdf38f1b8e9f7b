import { useTranslation } from 'react-i18next';
import { RainAnalysesCard } from '@/features/rain/components/rain-analyses';
import { RainSummary } from '@/features/rain/components/rain-summary';
import { RainfallView } from '@/features/rain/components/rainfall-view';
import { DetailRoute } from './detail';

/** A rain gauge: rain and its warning above the readings, rain per period in the history, the analyses after it. */
export default function Page() {
  const { t } = useTranslation('poi');
  return (
    <DetailRoute
      kind="pluviometer"
      sections={({ device }) => ({
        summary: <RainSummary deviceId={device.id} />,
        covered: ['rainfall'],
        extra: <RainAnalysesCard deviceId={device.id} />,
        views: [{ key: 'rain', label: t('rain.view'), render: (context) => <RainfallView {...context} /> }],
      })}
    />
  );
}
