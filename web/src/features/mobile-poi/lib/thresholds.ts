import type { Expression, Level, Operator, Rule } from '@/features/rules/types';

/** One limit an enabled alert rule sets on a device's parameter. */
export interface Threshold {
  ruleId: number;
  ruleName: string;
  level: Level;
  operator: Operator;
  value: number;
  /** The upper bound of a range (in, notIn). */
  value2?: number;
}

/**
 * The limits the caller's enabled alert rules put on a surface parameter of this device, as the rules
 * page defines them (expressions on the reading itself or an aggregate of it, not on another device).
 */
export function thresholdsFor(rules: readonly Rule[], deviceId: number, param: string): Threshold[] {
  const out: Threshold[] = [];
  for (const rule of rules) {
    if (!rule.enabled || !rule.deviceIds.includes(deviceId)) continue;
    for (const e of rule.expressions) {
      if (e.param !== param || (e.deviceId !== undefined && e.deviceId !== deviceId)) continue;
      out.push({ ruleId: rule.id, ruleName: rule.name, level: rule.level, operator: e.operator, value: e.threshold, value2: e.threshold2 });
    }
  }
  return out;
}

/** Whether a reading meets the expression's condition (the rule would fire on this reading alone). */
export function crosses(value: number, t: Pick<Expression, 'operator'> & { value: number; value2?: number }): boolean {
  const high = t.value2 ?? t.value;
  switch (t.operator) {
    case 'gt':
      return value > t.value;
    case 'gte':
      return value >= t.value;
    case 'lt':
      return value < t.value;
    case 'lte':
      return value <= t.value;
    case 'in':
      return value >= t.value && value <= high;
    case 'notIn':
      return value < t.value || value > high;
  }
}

/** What the reading means against the limits: 'alarm' beats 'normal'-level rules; null when none is crossed. */
export function alarmState(value: number | null, thresholds: readonly Threshold[]): Level | null {
  if (value === null) return null;
  const crossed = thresholds.filter((t) => crosses(value, t));
  if (crossed.length === 0) return null;
  return crossed.some((t) => t.level === 'alarm') ? 'alarm' : 'normal';
}

const SYMBOLS: Record<Operator, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', in: '∈', notIn: '∉' };

/** "> 2.5 m", "∈ [1, 2] m". */
export function thresholdText(t: Threshold, unit: string, format: (v: number) => string): string {
  const u = unit ? ` ${unit}` : '';
  if (t.operator === 'in' || t.operator === 'notIn') return `${SYMBOLS[t.operator]} [${format(t.value)}, ${format(t.value2 ?? t.value)}]${u}`;
  return `${SYMBOLS[t.operator]} ${format(t.value)}${u}`;
}
