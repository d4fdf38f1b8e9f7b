import { ComingSoon } from '@/components/coming-soon';
import { MobileComingSoon } from '@/components/mobile-coming-soon';
import { paths } from '@/config/paths';
import { MobilePage } from '../layouts/mobile-page';
import { usePageTitle } from '../route-handle';

/** A desktop screen that is being upgraded, titled after its route. */
export function ComingSoonRoute() {
  return <ComingSoon title={usePageTitle()} />;
}

/** A phone screen of its own that is being upgraded, with a way back to the device list. */
export function MobileScreenComingSoonRoute() {
  return (
    <MobilePage backTo={paths.mobile.devices}>
      <MobileComingSoon />
    </MobilePage>
  );
}

/** A section inside a phone screen (e.g. a device tab) that is being upgraded. */
export function MobileSectionComingSoonRoute() {
  return <MobileComingSoon title={usePageTitle()} />;
}
