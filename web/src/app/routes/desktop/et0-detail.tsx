import { ET0DetailPage } from '@/features/et0/components/et0-detail-page';

/** /console/et0/detail/{id}: one area's daily ET0 grid. */
export default function ET0DetailRoute() {
  return <ET0DetailPage />;
}
