import { useLocation, useParams } from 'react-router';
import { PortalPage } from '@/features/poi/components/portal-page';
import { tokenFromHash } from '@/features/poi/api/portal';

/** /uni-portal/{sn}#k={token}: a device's unified portal, open to whoever holds its link. */
export default function UniPortalRoute() {
  const { sn = '' } = useParams();
  const { hash } = useLocation();
  const token = tokenFromHash(hash);
  return <PortalPage key={`${sn}:${token}`} sn={sn} token={token} />;
}
