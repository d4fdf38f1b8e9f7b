import { SetsPage } from '@/features/ailab/components/sets-page';
import { usePageTitle } from '../../../route-handle';

export default function SampleSetsRoute() {
  return <SetsPage title={usePageTitle()} />;
}
