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

/** A plain address: local@dotted.domain, as the server checks it. */
export const EMAIL_PATTERN = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>".]+$/;
/** A mainland China mobile number, optionally with +86 and spaces or hyphens. */
export const MOBILE_PATTERN = /^(?:\+?86)?1[3-9]\d{9}$/;
export const CODE_PATTERN = /^\d{6}$/;

/** Rules of the binding forms: the address of each channel and the 6-digit code. */
export function useBindingRules() {
  const { t } = useTranslation('account');
  return useMemo(() => {
    const email: SharedRule[] = [
      { required: true, whitespace: true, message: t('bindings.email.required') },
      {
        validator: (_rule, value: unknown) =>
          typeof value === 'string' && value.trim() !== '' && !EMAIL_PATTERN.test(value.trim())
            ? Promise.reject(new Error(t('bindings.email.invalid')))
            : Promise.resolve(),
      },
    ];
    const mobile: SharedRule[] = [
      { required: true, whitespace: true, message: t('bindings.mobile.required') },
      {
        validator: (_rule, value: unknown) =>
          typeof value === 'string' && value.trim() !== '' && !MOBILE_PATTERN.test(value.replace(/[\s-]/g, ''))
            ? Promise.reject(new Error(t('bindings.mobile.invalid')))
            : Promise.resolve(),
      },
    ];
    const code: SharedRule[] = [
      { required: true, message: t('bindings.codeRequired') },
      { pattern: CODE_PATTERN, message: t('bindings.codeInvalid') },
    ];
    return { email, mobile, code };
  }, [t]);
}
