import { useParams } from 'react-router';
import { LabelPage } from '@/features/ailab/components/label-page';
import { usePageTitle } from '../../../route-handle';

export default function SampleLabelRoute() {
  const { sampleId } = useParams();
  return <LabelPage sampleId={Number(sampleId)} title={usePageTitle()} />;
}
