import { DetectionsPage } from '@/features/ailab/components/detections-page';
import { usePageTitle } from '../../../route-handle';

export default function DetectionsRoute() {
  return <DetectionsPage title={usePageTitle()} />;
}
