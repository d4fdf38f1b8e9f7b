import { PoiDetailPage } from '@/features/poi/components/poi-detail-page';

export default function Page() {
  return <PoiDetailPage kind="tianqi" />;
}
