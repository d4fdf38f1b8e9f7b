import { useTranslation } from 'react-i18next';
import { useNotice } from '@/lib/notice';
import { useUpdatePassword } from '../api/update-password';

/** The fields of the change-password form, on both layouts. */
export interface PasswordFields {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * The change-password behaviour both layouts share: submit the old and new password, then clear
 * the form (through resetForm) and confirm the change.
 */
export function usePasswordChange(resetForm: () => void) {
  const { t } = useTranslation('account');
  const notice = useNotice();
  const mutation = useUpdatePassword({
    onSuccess: () => {
      resetForm();
      notice.success(t('changePassword.success'));
    },
  });
  const submit = ({ oldPassword, newPassword }: PasswordFields) => mutation.mutate({ oldPassword, newPassword });
  return { mutation, submit };
}
