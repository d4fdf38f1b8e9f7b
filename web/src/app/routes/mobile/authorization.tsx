import { MobileAuthorization } from '@/features/mobile-sharing/components/mobile-authorization';
import { paths } from '@/config/paths';
import { MobilePage } from '../../layouts/mobile-page';

export default function MobileAuthorizationRoute() {
  return (
    <MobilePage backTo={paths.mobile.profile}>
      <MobileAuthorization />
    </MobilePage>
  );
}
