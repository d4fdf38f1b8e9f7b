import { act, renderHook } from '@testing-library/react';
import type { RuleObject } from 'antd/es/form';
import { describe, expect, it } from 'vitest';
import { changeLanguage, type Language } from '@/lib/i18n';
import { deviceNameProblem, useDeviceNameRules } from './validation';

async function firstError(value: string): Promise<string> {
  const { result } = renderHook(() => useDeviceNameRules());
  for (const rule of result.current as RuleObject[]) {
    try {
      await rule.validator?.(rule, value, () => {});
    } catch (error) {
      return (error as Error).message;
    }
  }
  return '';
}

describe('device name (SPEC §5: 1–16 characters)', () => {
  it('finds what is wrong, counting characters as people see them', () => {
    expect(deviceNameProblem('')).toBe('required');
    expect(deviceNameProblem('   ')).toBe('required');
    expect(deviceNameProblem(undefined)).toBe('required');
    expect(deviceNameProblem('东区墒情站'.repeat(3) + '一')).toBeNull(); // 16
    expect(deviceNameProblem('田'.repeat(17))).toBe('tooLong');
    expect(deviceNameProblem(`  ${'a'.repeat(16)}  `)).toBeNull();
    expect(deviceNameProblem('🌾'.repeat(16))).toBeNull();
  });

  const messages: Record<Language, { empty: string; long: string }> = {
    zh_CN: { empty: '名称不能为空', long: '名称最多 16 个字符' },
    zh_TW: { empty: '名稱不能為空', long: '名稱最多 16 個字元' },
    en_US: { empty: 'Name cannot be empty', long: 'Name must be at most 16 characters' },
  };

  for (const language of ['zh_CN', 'zh_TW', 'en_US'] as const) {
    it(`says what the server says, in ${language}`, async () => {
      await act(() => changeLanguage(language));
      expect(await firstError('  ')).toBe(messages[language].empty);
      expect(await firstError('x'.repeat(17))).toBe(messages[language].long);
      expect(await firstError('North field 1')).toBe('');
    });
  }
});
