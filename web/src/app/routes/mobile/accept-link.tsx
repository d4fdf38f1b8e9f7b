import { useParams } from 'react-router';
import { MobileAcceptLink } from '@/features/mobile-sharing/components/mobile-accept-link';
import { paths } from '@/config/paths';
import { MobilePage } from '../../layouts/mobile-page';

/** /apps/mobile/authorization/accept/{credential} and /apps/mobile/transfer/accept/{credential}. */
export default function MobileAcceptLinkRoute() {
  const { credential = '' } = useParams();
  const id = credential.trim();
  return (
    <MobilePage backTo={paths.mobile.devices}>
      <MobileAcceptLink key={id} credential={id} />
    </MobilePage>
  );
}
