import { useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { MobileAdvicePage } from '@/features/mobile-advice/components/mobile-advice-page';
import { MobilePage } from '../../layouts/mobile-page';

/** Where the page was opened from (a device's page), for the back arrow; the profile tab otherwise. */
export interface AdviceOpenedFrom {
  from?: string;
  fromState?: unknown;
}

/** /apps/mobile/advice. */
export default function MobileAdviceRoute() {
  const state = useLocation().state as AdviceOpenedFrom | null;
  return (
    <MobilePage backTo={state?.from ?? paths.mobile.profile} backState={state?.fromState}>
      <MobileAdvicePage />
    </MobilePage>
  );
}
