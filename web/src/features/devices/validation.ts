import type { FormRule } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** A device name is 1–16 characters after trimming (SPEC §5, as the server checks it). */
export const DEVICE_NAME_MAX_LENGTH = 16;

/** Counts characters as people see them, so a CJK name or an emoji counts once. */
export function characterCount(value: string): number {
  return Array.from(value).length;
}

export type DeviceNameProblem = 'required' | 'tooLong';

/** What is wrong with a device name, or null when the server will take it. */
export function deviceNameProblem(value: unknown): DeviceNameProblem | null {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '') return 'required';
  if (characterCount(name) > DEVICE_NAME_MAX_LENGTH) return 'tooLong';
  return null;
}

/** The rename form's rules, with the server's own messages ('Name cannot be empty'). */
export function useDeviceNameRules(): FormRule[] {
  const { t } = useTranslation('devices');
  return useMemo(
    () => [
      {
        validator: (_rule, value: unknown) => {
          const problem = deviceNameProblem(value);
          if (problem === 'required') return Promise.reject(new Error(t('rename.required')));
          if (problem === 'tooLong') {
            return Promise.reject(new Error(t('rename.tooLong', { max: DEVICE_NAME_MAX_LENGTH })));
          }
          return Promise.resolve();
        },
      },
    ],
    [t],
  );
}
