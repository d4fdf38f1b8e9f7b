import { UtilizationPage } from '@/features/water-use/components/utilization-page';

/** /console/exper: the effective utilization coefficient of irrigation water. */
export default function WaterUseRoute() {
  return <UtilizationPage />;
}
