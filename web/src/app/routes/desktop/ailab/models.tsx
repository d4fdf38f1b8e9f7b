import { ModelsPage } from '@/features/ailab/components/models-page';
import { usePageTitle } from '../../../route-handle';

export default function ModelsRoute() {
  return <ModelsPage title={usePageTitle()} />;
}
