import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLanguage, type Language } from '@/lib/i18n';
import { firstRuleError as firstError } from '@/lib/form-rules';
import { useAccountRules } from './validation';

type Rules = ReturnType<typeof useAccountRules>;
const cases: {
  name: string;
  run: (r: Rules) => Promise<string | undefined>;
  want: Record<Language, string>;
}[] = [
  {
    name: 'account number required',
    run: (r) => firstError(r.accountNumber, ''),
    want: { zh_CN: '请输入账号', zh_TW: '請輸入帳號', en_US: 'Please enter your account number' },
  },
  {
    name: 'account number: at least 6 letters or digits',
    run: (r) => firstError(r.accountNumber, 'farm-1'),
    want: {
      zh_CN: '账号至少 6 位，只能包含字母和数字',
      zh_TW: '帳號至少 6 位，只能包含字母和數字',
      en_US: 'The account number must be at least 6 letters or digits',
    },
  },
  {
    name: 'password: at least 6',
    run: (r) => firstError(r.loginPassword, '12345'),
    want: { zh_CN: '密码至少 6 位', zh_TW: '密碼至少 6 位', en_US: 'The password must be at least 6 characters' },
  },
  {
    name: 'name cannot be empty',
    run: (r) => firstError(r.name, '   '),
    want: { zh_CN: '名称不能为空', zh_TW: '名稱不能為空', en_US: 'Name cannot be empty' },
  },
  {
    name: 'name at most 16 characters, counted as people see them',
    run: (r) => firstError(r.name, '田'.repeat(17)),
    want: { zh_CN: '名称最多 16 个字符', zh_TW: '名稱最多 16 個字元', en_US: 'The name can be at most 16 characters' },
  },
  {
    name: 'new password differs from old',
    run: (r) => firstError(r.newPassword, 'secret1', { oldPassword: 'secret1' }),
    want: {
      zh_CN: '新密码不能与原密码相同',
      zh_TW: '新密碼不能與原密碼相同',
      en_US: 'The new password must differ from the current one',
    },
  },
  {
    name: 'new password at least 6',
    run: (r) => firstError(r.newPassword, '12345', { oldPassword: 'secret1' }),
    want: { zh_CN: '密码至少 6 位', zh_TW: '密碼至少 6 位', en_US: 'The password must be at least 6 characters' },
  },
  {
    name: 'the two passwords are inconsistent',
    run: (r) => firstError(r.confirmPassword, 'secret3', { newPassword: 'secret2' }),
    want: { zh_CN: '两次输入的密码不一致', zh_TW: '兩次輸入的密碼不一致', en_US: 'The two passwords are inconsistent' },
  },
];

describe('account rules (SPEC §5) in every language', () => {
  for (const language of ['zh_CN', 'zh_TW', 'en_US'] as const) {
    for (const c of cases) {
      it(`${language}: ${c.name}`, async () => {
        await act(() => changeLanguage(language));
        const { result } = renderHook(() => useAccountRules());
        expect(await c.run(result.current)).toBe(c.want[language]);
      });
    }
  }

  it('accepts valid input', async () => {
    const { result } = renderHook(() => useAccountRules());
    const r = result.current;
    expect(await firstError(r.accountNumber, 'demo01')).toBe('');
    expect(await firstError(r.name, '田'.repeat(16))).toBe('');
    expect(await firstError(r.newPassword, 'secret2', { oldPassword: 'secret1' })).toBe('');
    expect(await firstError(r.confirmPassword, 'secret2', { newPassword: 'secret2' })).toBe('');
  });
});
