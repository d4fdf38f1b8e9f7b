import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { firstRuleError, type SharedRule } from '@/lib/form-rules';
import { changeLanguage, type Language } from '@/lib/i18n';
import { isValidPushUrl, nameProblem, urlProblem, useAppFormRules, useChannelFormRules } from './validation';

const firstError = (rules: readonly unknown[], value: unknown) => firstRuleError(rules as SharedRule[], value);

describe('push address (SPEC §5)', () => {
  it.each([
    'https://erp.example.com/fieldwatch',
    'http://erp.example.com',
    'erp.example.com',
    'erp.example.com:8443/in?token=abc',
    '127.0.0.1:8080/push',
    'https://a-b.example.org/x/y',
    '  https://erp.example.com  ',
  ])('accepts %s', (url) => expect(isValidPushUrl(url)).toBe(true));

  it.each([
    'localhost:8080',
    'https://example',
    'ftp://erp.example.com',
    'https://erp.example.com/with space',
    'https://erp.example.com:99999',
    'https://erp.example.com:0',
    'https://erp..example.com',
    'https://user@erp.example.com',
    '//erp.example.com',
    'HTTPS://erp.example.com',
  ])('refuses %s', (url) => expect(isValidPushUrl(url)).toBe(false));

  it('required for a channel, optional for an application, at most 255 characters', () => {
    expect(urlProblem('')).toBe('required');
    expect(urlProblem('  ')).toBe('required');
    expect(urlProblem('', { optional: true })).toBeNull();
    expect(urlProblem(`https://e.com/${'a'.repeat(241)}`)).toBeNull();
    expect(urlProblem(`https://e.com/${'a'.repeat(242)}`)).toBe('tooLong');
    expect(urlProblem('nope')).toBe('invalid');
  });

  it('names: required, limit counted in characters', () => {
    expect(nameProblem(' ', 64)).toBe('required');
    expect(nameProblem('通'.repeat(64), 64)).toBeNull();
    expect(nameProblem('通'.repeat(65), 64)).toBe('tooLong');
    expect(nameProblem('应'.repeat(20), 20)).toBeNull();
    expect(nameProblem('应'.repeat(21), 20)).toBe('tooLong');
  });
});

type ChannelRules = ReturnType<typeof useChannelFormRules>;
type AppRules = ReturnType<typeof useAppFormRules>;
const cases: { name: string; run: (c: ChannelRules, a: AppRules) => Promise<string | undefined>; want: Record<Language, string> }[] = [
  {
    name: 'channel name required',
    run: (c) => firstError(c.name, ''),
    want: { zh_CN: '请输入通道名称', zh_TW: '請輸入通道名稱', en_US: 'Please enter the channel name' },
  },
  {
    name: 'channel name at most 64',
    run: (c) => firstError(c.name, 'x'.repeat(65)),
    want: { zh_CN: '通道名称最多 64 个字符', zh_TW: '通道名稱最多 64 個字元', en_US: 'The channel name can be at most 64 characters' },
  },
  {
    name: 'push address required',
    run: (c) => firstError(c.url, ''),
    want: { zh_CN: '请输入推送地址', zh_TW: '請輸入推送位址', en_US: 'Please enter the push address' },
  },
  {
    name: 'push address at most 255',
    run: (c) => firstError(c.url, `https://e.com/${'a'.repeat(300)}`),
    want: { zh_CN: '推送地址最多 255 个字符', zh_TW: '推送位址最多 255 個字元', en_US: 'The push address can be at most 255 characters' },
  },
  {
    name: 'push address valid',
    run: (c) => firstError(c.url, 'localhost:3000'),
    want: { zh_CN: '请输入有效的 http 或 https 地址', zh_TW: '請輸入有效的 http 或 https 位址', en_US: 'Please enter a valid http or https address' },
  },
  {
    name: 'devices selected',
    run: (c) => firstError(c.deviceIds, []),
    want: { zh_CN: '请选择设备', zh_TW: '請選擇設備', en_US: 'Please select devices' },
  },
  {
    name: 'application name required',
    run: (_c, a) => firstError(a.name, ' '),
    want: { zh_CN: '请输入应用名称', zh_TW: '請輸入應用名稱', en_US: 'Please enter the application name' },
  },
  {
    name: 'application name at most 20',
    run: (_c, a) => firstError(a.name, 'x'.repeat(21)),
    want: { zh_CN: '应用名称最多 20 个字符', zh_TW: '應用名稱最多 20 個字元', en_US: 'The application name can be at most 20 characters' },
  },
  {
    name: 'application push address valid when given',
    run: (_c, a) => firstError(a.pushUrl, 'not an address'),
    want: { zh_CN: '请输入有效的 http 或 https 地址', zh_TW: '請輸入有效的 http 或 https 位址', en_US: 'Please enter a valid http or https address' },
  },
];

describe('form messages are the server\'s, in every language', () => {
  for (const language of ['zh_CN', 'zh_TW', 'en_US'] as const) {
    for (const c of cases) {
      it(`${language}: ${c.name}`, async () => {
        await act(() => changeLanguage(language));
        const channel = renderHook(() => useChannelFormRules()).result.current;
        const app = renderHook(() => useAppFormRules()).result.current;
        expect(await c.run(channel, app)).toBe(c.want[language]);
      });
    }
  }

  it('accepts a complete channel and an application without push address', async () => {
    const channel = renderHook(() => useChannelFormRules()).result.current;
    const app = renderHook(() => useAppFormRules()).result.current;
    expect(await firstError(channel.name, '农场 ERP')).toBe('');
    expect(await firstError(channel.url, 'https://erp.example.com/in')).toBe('');
    expect(await firstError(channel.deviceIds, [3])).toBe('');
    expect(await firstError(app.name, '灌溉控制器')).toBe('');
    expect(await firstError(app.pushUrl, '')).toBe('');
  });
});
