import { AppsPage } from '@/features/ailab/components/apps-page';
import { usePageTitle } from '../../../route-handle';

export default function ApplicationsRoute() {
  return <AppsPage title={usePageTitle()} />;
}
