import { AudioTestPage } from '@/features/release/components/audio-test-page';

/** /test/audio. */
export default function AudioTestRoute() {
  return <AudioTestPage />;
}
