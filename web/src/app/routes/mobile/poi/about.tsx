import { MobileAboutPage } from '@/features/mobile-poi/components/about-page';
import '@/features/mobile-poi/components/mobile-poi.css';

export default function MobileAboutRoute() {
  return <MobileAboutPage />;
}
