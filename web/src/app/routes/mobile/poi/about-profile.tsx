import { MobileDeviceProfilePage } from '@/features/mobile-poi/components/profile-page';
import '@/features/mobile-poi/components/mobile-poi.css';

export default function MobileDeviceProfileRoute() {
  return <MobileDeviceProfilePage />;
}
