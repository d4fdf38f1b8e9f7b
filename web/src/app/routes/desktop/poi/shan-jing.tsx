import { useTranslation } from 'react-i18next';
import { TiltSummary, TiltTrendView, TiltYawView } from '@/features/tilt/components/tilt';
import { TiltTrendCard } from '@/features/tilt/components/tilt-trend-card';
import { DetailRoute } from './detail';

/** A tilt sensor: the lean and its trend above the readings, tilt and direction views in the history. */
export default function Page() {
  const { t } = useTranslation('poi');
  return (
    <DetailRoute
      kind="shan-jing"
      sections={({ device, catalogue, readings }) => ({
        summary: (
          <>
            <TiltSummary deviceId={device.id} catalogue={catalogue} readings={readings} />
            <TiltTrendCard deviceId={device.id} />
          </>
        ),
        covered: ['tiltAngle', 'tiltX', 'tiltY'],
        views: [
          { key: 'tilt', label: t('tilt.view'), render: (context) => <TiltTrendView {...context} /> },
          { key: 'yaw', label: t('yaw.view'), render: (context) => <TiltYawView {...context} /> },
        ],
      })}
    />
  );
}
