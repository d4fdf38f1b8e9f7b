import type { PoiKind } from '@/features/poi/types';
import { PoiDetailPage } from '@/features/poi/components/poi-detail-page';
import { ShareActions } from '@/features/sharing/components/share-actions';

/** A device's detail page; its owner can share or transfer it from the header. */
export function DetailRoute({ kind }: { kind: PoiKind }) {
  return (
    <PoiDetailPage
      kind={kind}
      headerActions={(device) => (device.right?.owner ? <ShareActions device={{ poiId: device.id, name: device.name, sn: device.sn }} /> : null)}
    />
  );
}
