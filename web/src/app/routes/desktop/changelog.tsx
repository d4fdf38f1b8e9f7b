import { ChangelogPage } from '@/features/release/components/changelog-page';

/** /console/release/log. */
export default function ChangelogRoute() {
  return <ChangelogPage />;
}
