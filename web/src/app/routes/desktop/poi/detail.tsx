import { PoiDetailPage, type SectionsOf } from '@/features/poi/components/poi-detail-page';
import type { PoiKind } from '@/features/poi/types';
import { ShareActions } from '@/features/sharing/components/share-actions';

/**
 * A device's detail page: the page every device shares, with the sections of its kind. Its owner
 * can share or transfer it from the header.
 */
export function DetailRoute({ kind, sections }: { kind: PoiKind; sections?: SectionsOf }) {
  return (
    <PoiDetailPage
      kind={kind}
      sections={sections}
      headerActions={(device) => (device.right?.owner ? <ShareActions device={{ poiId: device.id, name: device.name, sn: device.sn }} /> : null)}
    />
  );
}
