import { LevelSummary, TopologyCard } from '@/features/poi/components/kinds/level';
import { DetailRoute } from './detail';

/** A water level gauge: the level and its units above the readings. */
export default function Page() {
  return (
    <DetailRoute
      kind="liquidometer"
      sections={({ device, readings }) => ({
        summary: (
          <>
            <LevelSummary readings={readings} />
            <TopologyCard device={device} />
          </>
        ),
        covered: ['waterLevel', 'waterTemp'],
      })}
    />
  );
}
