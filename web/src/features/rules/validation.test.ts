import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { firstRuleError, type SharedRule } from '@/lib/form-rules';
import { changeLanguage, type Language } from '@/lib/i18n';
import { emptyExpression, type ExpressionDraft } from './form-state';
import type { RuleParam } from './types';
import { expressionProblem, expressionsProblem, nameProblem, useRuleFormRules } from './validation';

const airTemp: RuleParam = { id: 'airTemp', name: 'Air temperature', unit: '°C', precision: 1, nodes: [] };
const soilMoisture: RuleParam = { id: 'soilMoisture', name: 'Soil moisture', unit: '%', precision: 1, nodes: [10, 20, 30] };
const weatherParams = [airTemp, { id: 'offline_minutes', name: 'Offline for', unit: 'min', precision: 0, nodes: [] }];

const frost: ExpressionDraft = { nodes: [], param: 'airTemp', aggregation: 'min', operator: 'lte', threshold: 0, windowMinutes: 0 };

const firstError = (rules: readonly unknown[], value: unknown) => firstRuleError(rules as SharedRule[], value);

describe('rule checks', () => {
  it('name: required, at most 15 characters counted as people see them', () => {
    expect(nameProblem('')).toBe('required');
    expect(nameProblem('   ')).toBe('required');
    expect(nameProblem(undefined)).toBe('required');
    expect(nameProblem('霜'.repeat(15))).toBeNull();
    expect(nameProblem('霜'.repeat(16))).toBe('tooLong');
    expect(nameProblem(`  ${'a'.repeat(15)}  `)).toBeNull();
  });

  it('expressions: at least one, and offline minutes only alone', () => {
    expect(expressionsProblem([])).toBe('required');
    expect(expressionsProblem(undefined)).toBe('required');
    expect(expressionsProblem([frost])).toBeNull();
    expect(expressionsProblem([{ ...frost, param: 'offline_minutes' }])).toBeNull();
    expect(expressionsProblem([frost, { ...frost, param: 'offline_minutes' }])).toBe('offlineAlone');
    expect(expressionsProblem(Array.from({ length: 11 }, () => frost))).toBe('tooMany');
  });

  it('an expression is complete with a parameter, aggregation, comparison and threshold(s)', () => {
    expect(expressionProblem(frost)).toBeNull();
    expect(expressionProblem(emptyExpression())).toBe('incomplete');
    expect(expressionProblem({ ...frost, param: undefined })).toBe('incomplete');
    expect(expressionProblem({ ...frost, aggregation: undefined })).toBe('incomplete');
    expect(expressionProblem({ ...frost, operator: undefined })).toBe('incomplete');
    expect(expressionProblem({ ...frost, threshold: null })).toBe('incomplete');
    expect(expressionProblem({ ...frost, operator: 'in', threshold2: null })).toBe('incomplete');
    expect(expressionProblem({ ...frost, threshold: Number.NaN })).toBe('incomplete');
  });

  it('a range needs its first threshold below the second', () => {
    expect(expressionProblem({ ...frost, operator: 'in', threshold: 0, threshold2: 5 })).toBeNull();
    expect(expressionProblem({ ...frost, operator: 'notIn', threshold: 5, threshold2: 5 })).toBe('range');
    expect(expressionProblem({ ...frost, operator: 'in', threshold: 6, threshold2: 5 })).toBe('range');
    // The second threshold does not matter for a plain comparison.
    expect(expressionProblem({ ...frost, operator: 'lt', threshold: 6, threshold2: 5 })).toBeNull();
  });

  it('checks the parameter and its depths against what the source offers, once loaded', () => {
    const shallow: ExpressionDraft = { ...frost, param: 'soilMoisture', aggregation: 'avg', operator: 'gte', threshold: 45, nodes: [10] };
    expect(expressionProblem(shallow, [soilMoisture])).toBeNull();
    expect(expressionProblem({ ...shallow, nodes: [] }, [soilMoisture])).toBe('incomplete');
    expect(expressionProblem({ ...shallow, nodes: [15] }, [soilMoisture])).toBe('incomplete');
    // A landslide rule's rainfall, before its rain gauge is chosen: the type has no rainfall.
    expect(expressionProblem({ ...frost, param: 'rainfall' }, weatherParams)).toBe('incomplete');
    expect(expressionProblem({ ...frost, param: 'rainfall' })).toBeNull();
  });
});

type Rules = ReturnType<typeof useRuleFormRules>;
const cases: { name: string; run: (r: Rules) => Promise<string | undefined>; want: Record<Language, string> }[] = [
  {
    name: 'name required',
    run: (r) => firstError(r.name, ' '),
    want: { zh_CN: '请输入规则名称', zh_TW: '請輸入規則名稱', en_US: 'Please enter the rule name' },
  },
  {
    name: 'name at most 15 characters',
    run: (r) => firstError(r.name, 'x'.repeat(16)),
    want: {
      zh_CN: '规则名称最多 15 个字符',
      zh_TW: '規則名稱最多 15 個字元',
      en_US: 'The rule name may be at most 15 characters',
    },
  },
  {
    name: 'device type required',
    run: (r) => firstError(r.typeId, undefined),
    want: { zh_CN: '请选择设备类型', zh_TW: '請選擇設備類型', en_US: 'Please choose a device type' },
  },
  {
    name: 'at least one device',
    run: (r) => firstError(r.deviceIds, []),
    want: { zh_CN: '请至少选择一个设备！', zh_TW: '請至少選擇一個設備！', en_US: 'Select at least one device!' },
  },
  {
    name: 'at least one expression',
    run: (r) => firstError(r.expressions, []),
    want: { zh_CN: '请添加规则表达式...', zh_TW: '請添加規則表達式...', en_US: 'Please add rule expression...' },
  },
  {
    name: 'each expression complete',
    run: (r) => firstError(r.expression, { ...frost, operator: undefined }),
    want: { zh_CN: '请完善规则表达式...', zh_TW: '請完善規則表達式...', en_US: 'Please complete the rule expression...' },
  },
  {
    name: 'range thresholds in order',
    run: (r) => firstError(r.expression, { ...frost, operator: 'in', threshold: 20, threshold2: 10 }),
    want: {
      zh_CN: '阈值输入的第一个值必须小于第二个值！',
      zh_TW: '閾值輸入的第一個值必須小於第二個值！',
      en_US: 'The first value of the threshold input must be less than the second value!',
    },
  },
  {
    name: 'offline alone',
    run: (r) => firstError(r.expressions, [frost, { ...frost, param: 'offline_minutes' }]),
    want: {
      zh_CN: '离线条件不能与其他条件组合',
      zh_TW: '離線條件不能與其他條件組合',
      en_US: 'The offline condition cannot be combined with other conditions',
    },
  },
  {
    name: 'description at most 200 characters',
    run: (r) => firstError(r.description, '字'.repeat(201)),
    want: { zh_CN: '描述最多 200 个字符', zh_TW: '描述最多 200 個字元', en_US: 'The description may be at most 200 characters' },
  },
];

describe('rule form messages (SPEC §5) in every language', () => {
  for (const language of ['zh_CN', 'zh_TW', 'en_US'] as const) {
    for (const c of cases) {
      it(`${language}: ${c.name}`, async () => {
        await act(() => changeLanguage(language));
        const { result } = renderHook(() => useRuleFormRules(() => undefined));
        expect(await c.run(result.current)).toBe(c.want[language]);
      });
    }
  }

  it('accepts a complete rule', async () => {
    const { result } = renderHook(() => useRuleFormRules(() => weatherParams));
    const r = result.current;
    expect(await firstError(r.name, '霜冻风险')).toBe('');
    expect(await firstError(r.typeId, 5)).toBe('');
    expect(await firstError(r.deviceIds, [3])).toBe('');
    expect(await firstError(r.expressions, [frost])).toBe('');
    expect(await firstError(r.expression, frost)).toBe('');
    expect(await firstError(r.description, '')).toBe('');
  });
});
