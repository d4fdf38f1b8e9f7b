import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { SharedRule } from '@/lib/form-rules';

export const ACCOUNT_NUMBER_PATTERN = /^[A-Za-z0-9]{6,}$/;
export const PASSWORD_MIN_LENGTH = 6;
export const NAME_MAX_LENGTH = 16;

export type { SharedRule } from '@/lib/form-rules';

/** Counts characters as people see them, so a CJK name or an emoji counts once. */
function characterCount(value: string): number {
  return Array.from(value).length;
}

/** Form rules shared by the desktop (antd) and phone (antd-mobile) forms; messages are localized. */
export function useAccountRules() {
  const { t } = useTranslation('account');
  return useMemo(() => {
    const accountNumber: SharedRule[] = [
      { required: true, message: t('login.accountNumberRequired') },
      { pattern: ACCOUNT_NUMBER_PATTERN, message: t('login.accountNumberInvalid') },
    ];
    const loginPassword: SharedRule[] = [
      { required: true, message: t('login.passwordRequired') },
      { min: PASSWORD_MIN_LENGTH, message: t('login.passwordTooShort') },
    ];
    const name: SharedRule[] = [
      { required: true, whitespace: true, message: t('changeName.required') },
      {
        validator: (_rule, value: unknown) =>
          typeof value === 'string' && characterCount(value.trim()) > NAME_MAX_LENGTH
            ? Promise.reject(new Error(t('changeName.tooLong')))
            : Promise.resolve(),
      },
    ];
    const oldPassword: SharedRule[] = [{ required: true, message: t('changePassword.oldRequired') }];
    const newPassword: SharedRule[] = [
      { required: true, message: t('changePassword.newRequired') },
      { min: PASSWORD_MIN_LENGTH, message: t('changePassword.tooShort') },
      ({ getFieldValue }) => ({
        validator: (_rule, value: unknown) =>
          value && value === getFieldValue('oldPassword')
            ? Promise.reject(new Error(t('changePassword.sameAsOld')))
            : Promise.resolve(),
      }),
    ];
    const confirmPassword: SharedRule[] = [
      { required: true, message: t('changePassword.confirmRequired') },
      ({ getFieldValue }) => ({
        validator: (_rule, value: unknown) =>
          value && value !== getFieldValue('newPassword')
            ? Promise.reject(new Error(t('changePassword.mismatch')))
            : Promise.resolve(),
      }),
    ];
    return { accountNumber, loginPassword, name, oldPassword, newPassword, confirmPassword };
  }, [t]);
}
