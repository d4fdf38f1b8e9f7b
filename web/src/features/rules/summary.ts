import type { TFunction } from 'i18next';
import { isRange, OFFLINE_PARAM, type Expression, type RuleParam } from './types';

type T = TFunction<'rules'>;

const MINUTES_PER_HOUR = 60;
const MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR;

/** A time window in the largest whole unit, with rain's usual 24 hours: 30 minutes, 24 hours, 7 days. */
export function formatWindow(t: T, minutes: number): string {
  if (minutes > MINUTES_PER_DAY && minutes % MINUTES_PER_DAY === 0) return t('duration.days', { count: minutes / MINUTES_PER_DAY });
  if (minutes % MINUTES_PER_HOUR === 0) return t('duration.hours', { count: minutes / MINUTES_PER_HOUR });
  return t('duration.minutes', { count: minutes });
}

function withUnit(value: number, unit: string): string {
  return unit ? `${value} ${unit}` : String(value);
}

/** "≤ 0 °C", "in 10 ~ 20 %". */
export function formatComparison(t: T, expression: Pick<Expression, 'operator' | 'threshold' | 'threshold2'>, unit: string): string {
  if (isRange(expression.operator)) {
    return t(`summary.operators.${expression.operator}`, {
      low: String(expression.threshold),
      high: withUnit(expression.threshold2 ?? Number.NaN, unit),
    });
  }
  return t(`summary.operators.${expression.operator}`, { value: withUnit(expression.threshold, unit) });
}

export interface ExpressionContext {
  /** The parameter's name and unit; the bare id is shown while they load. */
  param?: RuleParam;
  /** The other device the expression reads, when it reads one. */
  deviceName?: string;
}

/**
 * One condition in words, e.g. "Air temperature min ≤ 0 °C" or
 * "Rainfall (Gauge 2) sum over 24 h ≥ 50 mm".
 */
export function describeExpression(t: T, expression: Expression, { param, deviceName }: ExpressionContext = {}): string {
  const name = param?.name || expression.param;
  const unit = param?.unit ?? '';
  const comparison = formatComparison(t, expression, unit);
  if (expression.param === OFFLINE_PARAM) return t('summary.offline', { param: name, comparison });
  const nodes = expression.nodes ?? [];
  let scope = '';
  if (nodes.length > 0) scope += t('summary.nodes', { nodes: [...nodes].sort((a, b) => a - b).join(t('summary.listSeparator')) });
  if (expression.deviceId) scope += t('summary.device', { device: deviceName || `#${expression.deviceId}` });
  const window = expression.windowMinutes ? t('summary.window', { duration: formatWindow(t, expression.windowMinutes) }) : '';
  return t('summary.expression', {
    param: name,
    scope,
    window,
    agg: t(`summary.aggregations.${expression.aggregation}`),
    comparison,
  });
}
