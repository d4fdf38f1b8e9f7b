/** Alert rules as the /apis/rule* calls carry them (SPEC §3 Alert rule). Times are unix ms. */

export const LEVELS = ['normal', 'alarm'] as const;
export type Level = (typeof LEVELS)[number];

export const AGGREGATIONS = ['max', 'min', 'avg', 'sum', 'any', 'all'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export const OPERATORS = ['gt', 'lt', 'gte', 'lte', 'in', 'notIn'] as const;
export type Operator = (typeof OPERATORS)[number];

export const NOTIFY_METHODS = ['email', 'wechat'] as const;
export type NotifyMethod = (typeof NOTIFY_METHODS)[number];

/** SPEC §9: none, 24 hours, 48 hours. */
export const SILENT_HOURS = [0, 24, 48] as const;
export type SilentHours = (typeof SILENT_HOURS)[number];

/** Minutes since the device's last report: judged by the clock, so it must be a rule's only condition. */
export const OFFLINE_PARAM = 'offline_minutes';

export function isRange(operator: Operator | undefined): boolean {
  return operator === 'in' || operator === 'notIn';
}

export interface Expression {
  expressionId: number;
  /** Depths in cm; empty for a surface parameter. */
  nodes: number[];
  param: string;
  aggregation: Aggregation;
  operator: Operator;
  threshold: number;
  /** The upper bound of a range operator. */
  threshold2?: number;
  /** Aggregate over this many minutes ending at each report; 0 or absent is the report itself. */
  windowMinutes?: number;
  /** Read the parameter from this other device of the caller's instead of the rule's devices. */
  deviceId?: number;
}

export interface Rule {
  id: number;
  name: string;
  enabled: boolean;
  typeId: number;
  typeName: string;
  deviceIds: number[];
  level: Level;
  expressions: Expression[];
  notify: NotifyMethod[];
  silentHours: SilentHours;
  description: string;
  /** The built-in template the rule started from, if any. */
  template?: string;
  createTime: number;
  updateTime: number;
}

/** What POST /apis/rule and PUT /apis/rule/{id} take. */
export type RuleInput = Omit<Rule, 'id' | 'typeName' | 'createTime' | 'updateTime'>;

/** A device type the caller has devices of (GET /apis/rule/types). */
export interface RuleType {
  typeId: number;
  typeName: string;
  count: number;
}

/** One of the caller's devices (GET /apis/rule/devices). */
export interface RuleDevice {
  id: number;
  sn: string;
  name: string;
  typeId: number;
}

/** A parameter a rule may test (GET /apis/rule/params). */
export interface RuleParam {
  id: string;
  name: string;
  unit: string;
  precision: number;
  /** Depths it is measured at; empty for a surface parameter. */
  nodes: number[];
}

/** Whose parameters: a device type's, or one device's (an expression reading another device). */
export type ParamSource = { typeId: number } | { deviceId: number };

/** A built-in rule to start from (GET /apis/rule/templates). */
export interface RuleTemplate {
  id: string;
  name: string;
  rule: Partial<RuleInput> & Pick<RuleInput, 'expressions'>;
}

/**
 * A rule as the server sent it, with empty lists where it may send null (an empty Go slice), so
 * the screens can rely on arrays.
 */
export function normalizeRule<T extends Partial<RuleInput>>(rule: T): T {
  return {
    ...rule,
    deviceIds: rule.deviceIds ?? [],
    notify: rule.notify ?? [],
    expressions: (rule.expressions ?? []).map((expression) => ({ ...expression, nodes: expression.nodes ?? [] })),
  };
}
