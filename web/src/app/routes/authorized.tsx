import { useSearchParams } from 'react-router';
import { AcceptLinkPage } from '@/features/sharing/components/accept-link';

/** /apps/authoried/{grant|transfer}?credential={id}: a share or transfer link, open to anyone. */
export default function AuthorizedRoute() {
  const [searchParams] = useSearchParams();
  const credential = searchParams.get('credential')?.trim() ?? '';
  return <AcceptLinkPage key={credential} credential={credential} />;
}
