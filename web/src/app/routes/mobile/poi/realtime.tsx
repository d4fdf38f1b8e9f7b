import { MobileRealtimePage } from '@/features/mobile-poi/components/realtime-page';
import '@/features/mobile-poi/components/mobile-poi.css';

export default function MobileRealtimeRoute() {
  return <MobileRealtimePage />;
}
