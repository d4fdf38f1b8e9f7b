import { useProfile } from '@/features/account/api/get-profile';
import { FeedbackPage } from '@/features/feedback/components/feedback-page';
import { defaultContact } from '@/features/feedback/validation';

/** /console/feedback: the contact is offered from the account's bindings. */
export default function FeedbackRoute() {
  const profile = useProfile();
  return <FeedbackPage offered={defaultContact(profile.data)} />;
}
