import { LabHome } from '@/features/ailab/components/lab-home';
import { usePageTitle } from '../../../route-handle';

export default function AiLabRoute() {
  return <LabHome title={usePageTitle()} />;
}
