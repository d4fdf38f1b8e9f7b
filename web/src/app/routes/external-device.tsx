import { Navigate, useParams } from 'react-router';
import { PortalPage } from '@/features/poi/components/portal-page';
import { parseCheckParams } from '@/features/poi/api/portal';

/**
 * /external-device/{sn}.{token}: a device's unified portal for a partner's site that cannot put the
 * token in the address's fragment. The address is replaced at once by /uni-portal/{sn}#k={token}, so
 * the token does not stay in the address bar or the history; anything else is the portal's "does not
 * exist".
 */
export default function ExternalDeviceRoute() {
  const { checkParams = '' } = useParams();
  const parsed = parseCheckParams(checkParams);
  if (!parsed) return <PortalPage sn="" token="" />;
  return <Navigate replace to={`/uni-portal/${encodeURIComponent(parsed.sn)}#k=${encodeURIComponent(parsed.token)}`} />;
}
