import { SamplesPage } from '@/features/ailab/components/samples-page';
import { usePageTitle } from '../../../route-handle';

export default function SamplesRoute() {
  return <SamplesPage title={usePageTitle()} />;
}
