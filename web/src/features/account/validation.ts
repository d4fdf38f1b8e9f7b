import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export const ACCOUNT_NUMBER_PATTERN = /^[A-Za-z0-9]{6,}$/;
export const PASSWORD_MIN_LENGTH = 6;
export const NAME_MAX_LENGTH = 16;

interface FieldRule {
  required?: boolean;
  whitespace?: boolean;
  message?: string;
  pattern?: RegExp;
  min?: number;
  validator?: (rule: unknown, value: unknown) => Promise<void>;
}

/** A rule that reads another field of the same form. */
type DependentRule = (form: { getFieldValue: (name: string) => unknown }) => FieldRule;

/** Written once for both form libraries: antd and antd-mobile accept the same rule shapes. */
export type SharedRule = FieldRule | DependentRule;

/**
 * The first message of the rules a value breaks, or '' — applied as both form libraries apply
 * them, for forms drawn without either (the login page).
 */
export async function firstRuleError(
  rules: SharedRule[],
  value: string,
  fields: Record<string, string> = {},
): Promise<string> {
  for (const shared of rules) {
    const rule = typeof shared === 'function' ? shared({ getFieldValue: (name) => fields[name] }) : shared;
    const empty = value === '' || (rule.whitespace === true && value.trim() === '');
    if (rule.required && empty) return rule.message ?? '';
    if (rule.pattern && value && !rule.pattern.test(value)) return rule.message ?? '';
    if (rule.min !== undefined && value && value.length < rule.min) return rule.message ?? '';
    if (rule.validator) {
      try {
        await rule.validator(rule, value);
      } catch (error) {
        return (error as Error).message;
      }
    }
  }
  return '';
}

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
