import { ImagesCard, InsectSummary } from '@/features/poi/components/kinds/camera';
import { DetailRoute } from './detail';

/** A camera or insect trap: its images (and catch) above the readings (its controls are the page's own). */
export default function Page() {
  return (
    <DetailRoute
      kind="ibiosense"
      sections={({ device, catalogue }) => ({
        summary: (
          <>
            <ImagesCard deviceId={device.id} />
            {catalogue.params.some((param) => param.id === 'insectCount') && <InsectSummary deviceId={device.id} />}
          </>
        ),
        covered: ['insectCount'],
      })}
    />
  );
}
