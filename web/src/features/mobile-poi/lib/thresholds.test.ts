import { describe, expect, it } from 'vitest';
import type { Rule } from '@/features/rules/types';
import { alarmState, crosses, thresholdsFor, thresholdText } from './thresholds';

function rule(over: Partial<Rule>): Rule {
  return {
    id: 1,
    name: 'High water',
    enabled: true,
    typeId: 17,
    typeName: '',
    deviceIds: [5],
    level: 'alarm',
    expressions: [{ expressionId: 1, nodes: [], param: 'waterLevel', aggregation: 'max', operator: 'gt', threshold: 2.5 }],
    notify: [],
    silentHours: 0,
    description: '',
    createTime: 0,
    updateTime: 0,
    ...over,
  };
}

describe('thresholdsFor', () => {
  it("takes the enabled rules on this device's parameter only", () => {
    const rules = [
      rule({}),
      rule({ id: 2, enabled: false }),
      rule({ id: 3, deviceIds: [6] }),
      rule({ id: 4, name: 'Low', level: 'normal', expressions: [{ expressionId: 2, nodes: [], param: 'waterLevel', aggregation: 'min', operator: 'lt', threshold: 0.3 }] }),
      rule({ id: 5, expressions: [{ expressionId: 3, nodes: [], param: 'waterTemp', aggregation: 'max', operator: 'gt', threshold: 30 }] }),
      rule({ id: 6, expressions: [{ expressionId: 4, nodes: [], param: 'waterLevel', aggregation: 'max', operator: 'gt', threshold: 1, deviceId: 9 }] }),
    ];
    expect(thresholdsFor(rules, 5, 'waterLevel').map((t) => [t.ruleId, t.operator, t.value, t.level])).toEqual([
      [1, 'gt', 2.5, 'alarm'],
      [4, 'lt', 0.3, 'normal'],
    ]);
  });
});

describe('crosses and alarmState', () => {
  it('applies each operator as the rules do', () => {
    expect(crosses(2.5, { operator: 'gt', value: 2.5 })).toBe(false);
    expect(crosses(2.5, { operator: 'gte', value: 2.5 })).toBe(true);
    expect(crosses(1, { operator: 'lt', value: 1 })).toBe(false);
    expect(crosses(1, { operator: 'lte', value: 1 })).toBe(true);
    expect(crosses(1.5, { operator: 'in', value: 1, value2: 2 })).toBe(true);
    expect(crosses(2.5, { operator: 'notIn', value: 1, value2: 2 })).toBe(true);
    expect(crosses(1.5, { operator: 'notIn', value: 1, value2: 2 })).toBe(false);
  });

  it('is alarm when an alarm-level limit is crossed, normal for a normal-level one, null otherwise', () => {
    const limits = thresholdsFor(
      [
        rule({}),
        rule({ id: 4, level: 'normal', expressions: [{ expressionId: 2, nodes: [], param: 'waterLevel', aggregation: 'min', operator: 'lt', threshold: 0.3 }] }),
      ],
      5,
      'waterLevel',
    );
    expect(alarmState(3, limits)).toBe('alarm');
    expect(alarmState(0.1, limits)).toBe('normal');
    expect(alarmState(1, limits)).toBeNull();
    expect(alarmState(null, limits)).toBeNull();
  });

  it('writes a limit with its unit', () => {
    const fmt = (v: number) => String(v);
    expect(thresholdText({ ruleId: 1, ruleName: '', level: 'alarm', operator: 'gte', value: 2.5 }, 'm', fmt)).toBe('≥ 2.5 m');
    expect(thresholdText({ ruleId: 1, ruleName: '', level: 'alarm', operator: 'in', value: 1, value2: 2 }, '°', fmt)).toBe('∈ [1, 2] °');
  });
});
