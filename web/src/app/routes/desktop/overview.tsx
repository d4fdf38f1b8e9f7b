import { OverviewPage } from '@/features/overview/components/overview-page';

/** /apps/overview. */
export default function OverviewRoute() {
  return <OverviewPage />;
}
