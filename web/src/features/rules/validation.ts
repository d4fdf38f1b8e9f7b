import type { FormRule } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExpressionDraft } from './form-state';
import { isRange, OFFLINE_PARAM, type RuleParam } from './types';

/** SPEC §5 and §9: a rule's name is at most 15 characters. */
export const RULE_NAME_MAX_LENGTH = 15;
/** As the server checks it. */
export const RULE_DESCRIPTION_MAX_LENGTH = 200;
export const RULE_MAX_EXPRESSIONS = 10;

/** Counts characters as people see them, so a CJK name or an emoji counts once. */
export function characterCount(value: string): number {
  return Array.from(value).length;
}

export type NameProblem = 'required' | 'tooLong';

export function nameProblem(value: unknown): NameProblem | null {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '') return 'required';
  if (characterCount(name) > RULE_NAME_MAX_LENGTH) return 'tooLong';
  return null;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export type ExpressionProblem = 'incomplete' | 'range';

/**
 * What is wrong with one expression, or null. `params` are the parameters its source offers
 * (the rule's type, or the other device it reads); undefined while they load, when only the
 * fields themselves are checked.
 */
export function expressionProblem(draft: ExpressionDraft | undefined, params?: RuleParam[]): ExpressionProblem | null {
  if (!draft || !draft.param || !draft.aggregation || !draft.operator || !isNumber(draft.threshold)) return 'incomplete';
  if (isRange(draft.operator) && !isNumber(draft.threshold2)) return 'incomplete';
  if (params) {
    const param = params.find((p) => p.id === draft.param);
    // e.g. a landslide rule's rainfall before its rain gauge is chosen.
    if (!param) return 'incomplete';
    if (param.nodes.length > 0 && (draft.nodes.length === 0 || draft.nodes.some((n) => !param.nodes.includes(n)))) {
      return 'incomplete';
    }
  }
  if (isRange(draft.operator) && (draft.threshold as number) >= (draft.threshold2 as number)) return 'range';
  return null;
}

/** The parts of an incomplete expression to point at. */
export function missingParts(draft: ExpressionDraft, params?: RuleParam[]) {
  const param = params?.find((p) => p.id === draft.param);
  return {
    param: !draft.param || (params !== undefined && !param),
    nodes: param !== undefined && param.nodes.length > 0 && draft.nodes.length === 0,
    aggregation: !draft.aggregation,
    operator: !draft.operator,
    threshold: !isNumber(draft.threshold),
    threshold2: isRange(draft.operator) && !isNumber(draft.threshold2),
  };
}

export type ExpressionsProblem = 'required' | 'offlineAlone' | 'tooMany';

export function expressionsProblem(drafts: ExpressionDraft[] | undefined): ExpressionsProblem | null {
  if (!drafts || drafts.length === 0) return 'required';
  if (drafts.length > RULE_MAX_EXPRESSIONS) return 'tooMany';
  if (drafts.length > 1 && drafts.some((d) => d.param === OFFLINE_PARAM)) return 'offlineAlone';
  return null;
}

function rejectWith(message: string) {
  return Promise.reject(new Error(message));
}

/**
 * The rule form's rules, with the SPEC's messages in the current language. `paramsOf` gives the
 * parameters an expression's source offers, when they have loaded.
 */
export function useRuleFormRules(paramsOf: (draft: ExpressionDraft) => RuleParam[] | undefined) {
  const { t } = useTranslation('rules');
  return useMemo(() => {
    const name: FormRule[] = [
      {
        validator: (_rule, value: unknown) => {
          const problem = nameProblem(value);
          if (problem === 'required') return rejectWith(t('validation.nameRequired'));
          if (problem === 'tooLong') return rejectWith(t('validation.nameTooLong', { max: RULE_NAME_MAX_LENGTH }));
          return Promise.resolve();
        },
      },
    ];
    const typeId: FormRule[] = [{ required: true, message: t('validation.typeRequired') }];
    const deviceIds: FormRule[] = [{ required: true, type: 'array', min: 1, message: t('validation.devicesRequired') }];
    // Form.List takes only validator rules.
    const expressions: { validator: (rule: unknown, value: ExpressionDraft[] | undefined) => Promise<void> }[] = [
      {
        validator: (_rule, value) => {
          const problem = expressionsProblem(value);
          if (problem === 'required') return rejectWith(t('validation.expressionsRequired'));
          if (problem === 'tooMany') return rejectWith(t('validation.expressionsTooMany', { max: RULE_MAX_EXPRESSIONS }));
          if (problem === 'offlineAlone') return rejectWith(t('validation.offlineAlone'));
          return Promise.resolve();
        },
      },
    ];
    const expression: FormRule[] = [
      {
        validator: (_rule, value: ExpressionDraft | undefined) => {
          const problem = expressionProblem(value, value ? paramsOf(value) : undefined);
          if (problem === 'incomplete') return rejectWith(t('validation.expressionIncomplete'));
          if (problem === 'range') return rejectWith(t('validation.thresholdRange'));
          return Promise.resolve();
        },
      },
    ];
    const description: FormRule[] = [
      {
        validator: (_rule, value: unknown) =>
          typeof value === 'string' && characterCount(value.trim()) > RULE_DESCRIPTION_MAX_LENGTH
            ? rejectWith(t('validation.descriptionTooLong', { max: RULE_DESCRIPTION_MAX_LENGTH }))
            : Promise.resolve(),
      },
    ];
    return { name, typeId, deviceIds, expressions, expression, description };
  }, [t, paramsOf]);
}
