import { useProfile } from '@/features/account/api/get-profile';
import { MobileChangeNameForm } from '@/features/account/components/mobile-change-name-form';
import { MobileBindings } from '@/features/account/components/mobile-bindings';
import { MobileChangePasswordForm } from '@/features/account/components/mobile-change-password-form';
import { MobileProfileList } from '@/features/account/components/mobile-profile-list';
import { PageLoading } from '@/components/page-loading';
import { paths } from '@/config/paths';
import { MobilePage } from '../../layouts/mobile-page';

export default function MobileAccountRoute() {
  const { data: profile } = useProfile();
  return (
    <MobilePage backTo={paths.mobile.profile}>
      {profile ? (
        <>
          <MobileProfileList profile={profile} />
          <MobileBindings profile={profile} />
          <MobileChangeNameForm key={profile.name} currentName={profile.name} />
          <MobileChangePasswordForm />
        </>
      ) : (
        <PageLoading />
      )}
    </MobilePage>
  );
}
