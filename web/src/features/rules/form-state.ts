import {
  isRange,
  type Aggregation,
  type Expression,
  type Level,
  type NotifyMethod,
  type Operator,
  type ParamSource,
  type Rule,
  type RuleInput,
  type RuleTemplate,
  type SilentHours,
} from './types';

/** One expression as the form holds it: anything may still be missing. */
export interface ExpressionDraft {
  nodes: number[];
  param?: string;
  aggregation?: Aggregation;
  operator?: Operator;
  threshold?: number | null;
  threshold2?: number | null;
  /** 0: the report itself. */
  windowMinutes: number;
  /** Another of the caller's devices to read the parameter from. */
  deviceId?: number;
}

export interface RuleFormValues {
  typeId?: number;
  /** The template the rule started from; '' for a blank rule. */
  template: string;
  name: string;
  deviceIds: number[];
  level: Level;
  expressions: ExpressionDraft[];
  notify: NotifyMethod[];
  silentHours: SilentHours;
  description: string;
}

export function emptyExpression(): ExpressionDraft {
  return { nodes: [], windowMinutes: 0 };
}

/** A new rule: nothing chosen yet, notified by e-mail, no silent period. */
export function blankRuleValues(): RuleFormValues {
  return {
    template: '',
    name: '',
    deviceIds: [],
    level: 'normal',
    expressions: [],
    notify: ['email'],
    silentHours: 0,
    description: '',
  };
}

function toDraft(expression: Expression): ExpressionDraft {
  return {
    nodes: [...(expression.nodes ?? [])],
    param: expression.param || undefined,
    aggregation: expression.aggregation || undefined,
    operator: expression.operator || undefined,
    threshold: expression.threshold ?? null,
    threshold2: expression.threshold2 ?? null,
    windowMinutes: expression.windowMinutes ?? 0,
    deviceId: expression.deviceId || undefined,
  };
}

/** The form for editing a stored rule. */
export function fromRule(rule: Rule): RuleFormValues {
  return {
    typeId: rule.typeId,
    template: rule.template ?? '',
    name: rule.name,
    deviceIds: [...rule.deviceIds],
    level: rule.level,
    expressions: rule.expressions.map(toDraft),
    notify: [...rule.notify],
    silentHours: rule.silentHours,
    description: rule.description ?? '',
  };
}

/**
 * The form after choosing a template: its level, conditions, notifications, silent period and
 * description replace the current ones; the type and the chosen devices stay. The template's name
 * replaces the current name unless the user typed one of their own (not `previous`'s name).
 */
export function applyTemplate(current: RuleFormValues, template: RuleTemplate, previous?: RuleTemplate): RuleFormValues {
  const rule = template.rule;
  const typedName = current.name.trim() !== '' && current.name !== templateName(previous);
  return {
    ...current,
    template: template.id,
    name: typedName ? current.name : templateName(template),
    level: rule.level ?? current.level,
    expressions: rule.expressions.map(toDraft),
    notify: rule.notify ? [...rule.notify] : current.notify,
    silentHours: rule.silentHours ?? current.silentHours,
    description: rule.description ?? '',
  };
}

function templateName(template: RuleTemplate | undefined): string {
  return template ? template.rule.name || template.name : '';
}

/** The form after going back to a blank rule: conditions cleared, the type and devices kept. */
export function clearTemplate(current: RuleFormValues, previous?: RuleTemplate): RuleFormValues {
  const blank = blankRuleValues();
  const typedName = current.name.trim() !== '' && current.name !== templateName(previous);
  return { ...blank, typeId: current.typeId, deviceIds: current.deviceIds, name: typedName ? current.name : '' };
}

function toExpression(draft: ExpressionDraft, index: number): Expression {
  const expression: Expression = {
    expressionId: index + 1,
    nodes: [...draft.nodes].sort((a, b) => a - b),
    param: draft.param ?? '',
    aggregation: draft.aggregation as Aggregation,
    operator: draft.operator as Operator,
    threshold: draft.threshold as number,
  };
  if (isRange(draft.operator)) expression.threshold2 = draft.threshold2 as number;
  if (draft.windowMinutes > 0) expression.windowMinutes = draft.windowMinutes;
  if (draft.deviceId !== undefined) expression.deviceId = draft.deviceId;
  return expression;
}

/** The body of POST /apis/rule or PUT /apis/rule/{id}, from a form that passed validation. */
export function toRuleInput(values: RuleFormValues, enabled: boolean): RuleInput {
  const input: RuleInput = {
    name: values.name.trim(),
    enabled,
    typeId: values.typeId as number,
    deviceIds: [...values.deviceIds],
    level: values.level,
    expressions: values.expressions.map(toExpression),
    notify: [...values.notify],
    silentHours: values.silentHours,
    description: values.description.trim(),
  };
  if (values.template) input.template = values.template;
  return input;
}

/** Whose parameters an expression reads: the other device it names, else the rule's type. */
export function paramSourceOf(draft: ExpressionDraft, typeId: number | undefined): ParamSource | undefined {
  if (draft.deviceId !== undefined) return { deviceId: draft.deviceId };
  return typeId === undefined ? undefined : { typeId };
}
