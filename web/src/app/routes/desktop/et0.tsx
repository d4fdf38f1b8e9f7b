import { ET0AreasPage } from '@/features/et0/components/et0-areas-page';

/** /console/service/et0: the ET0 raster data service's areas. */
export default function ET0Route() {
  return <ET0AreasPage />;
}
