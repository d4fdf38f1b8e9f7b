import { Navigate, useLocation, useSearchParams } from 'react-router';
import { AcceptLinkPage } from '@/features/sharing/components/accept-link';
import { useMobileMode } from '@/lib/mobile-mode';
import { mobileLinkEquivalent } from '../mobile-redirect';

/** /apps/authoried/{grant|transfer}?credential={id}: a share or transfer link, open to anyone. */
export default function AuthorizedRoute() {
  const [searchParams] = useSearchParams();
  const { pathname, search } = useLocation();
  const phone = useMobileMode() ? mobileLinkEquivalent(pathname, search) : null;
  if (phone) return <Navigate to={phone} replace />;
  const credential = searchParams.get('credential')?.trim() ?? '';
  return <AcceptLinkPage key={credential} credential={credential} />;
}
