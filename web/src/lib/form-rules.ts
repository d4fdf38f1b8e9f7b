/**
 * Form rules in the shape antd's and antd-mobile's forms both accept, and the checker that applies
 * them the way those forms do — for forms drawn without either (the login page) and for tests.
 */
export interface FieldRule {
  required?: boolean;
  whitespace?: boolean;
  message?: string;
  pattern?: RegExp;
  min?: number;
  validator?: (rule: unknown, value: unknown) => Promise<void>;
}

/** A rule that reads another field of the same form. */
export type DependentRule = (form: { getFieldValue: (name: string) => unknown }) => FieldRule;

export type SharedRule = FieldRule | DependentRule;

function isEmpty(value: unknown, whitespace: boolean): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return whitespace && typeof value === 'string' && value.trim() === '';
}

/**
 * The message of the first rule a value breaks, or '': required (empty strings, lists; blank with
 * `whitespace`), pattern (strings), min (length of a string or a list), then the validator, which
 * runs on empty values too.
 */
export async function firstRuleError(
  rules: readonly SharedRule[],
  value: unknown,
  fields: Record<string, unknown> = {},
): Promise<string> {
  for (const shared of rules) {
    const rule = typeof shared === 'function' ? shared({ getFieldValue: (name) => fields[name] }) : shared;
    const message = rule.message ?? '';
    const empty = isEmpty(value, rule.whitespace === true);
    if (rule.required && empty) return message;
    // An empty value is the required rule's business; a validator sees it still, as in both forms.
    if (!empty && rule.pattern && typeof value === 'string' && !rule.pattern.test(value)) return message;
    const length = typeof value === 'string' || Array.isArray(value) ? value.length : undefined;
    if (!empty && rule.min !== undefined && length !== undefined && length < rule.min) return message;
    if (rule.validator) {
      try {
        await rule.validator(rule, value);
      } catch (error) {
        return (error as Error).message;
      }
    }
  }
  return '';
}
