import { AdvicePage } from '@/features/advice/components/advice-page';

/** /apps/advice. */
export default function AdviceRoute() {
  return <AdvicePage />;
}
