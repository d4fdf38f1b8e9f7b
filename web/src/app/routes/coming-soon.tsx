import { ComingSoon } from '@/components/coming-soon';
import { usePageTitle } from '../route-handle';

/** A desktop screen that is being upgraded, titled after its route. */
export function ComingSoonRoute() {
  return <ComingSoon title={usePageTitle()} />;
}
