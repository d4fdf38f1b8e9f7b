import { MobileHistoryPage } from '@/features/mobile-poi/components/history-page';
import '@/features/mobile-poi/components/mobile-poi.css';

export default function MobileHistoryRoute() {
  return <MobileHistoryPage />;
}
