/**
 * What a device label says, as a person gives it: the label's URL or text (`fw:{sn}:{code}`, what
 * its QR code holds), or the SN and the check code printed under the QR code (docs/decisions.md).
 */

/** The check code printed under a label's QR code: 8 letters and digits. */
const CHECK_CODE = /^[A-Za-z2-7]{8}$/;
const SN = /^[A-Za-z0-9-]{6,32}$/;

export type LabelProblem = 'required' | 'snInvalid' | 'checkRequired' | 'checkInvalid';

/** Whether the text is a whole label (its URL or its QR text) rather than a typed SN. */
export function isWholeLabel(text: string): boolean {
  const value = text.trim();
  return value.startsWith('fw:') || /^https?:\/\//i.test(value);
}

/**
 * The code to look a label up by, from what a person typed: the whole label in the first field, or
 * the SN there and the check code in the second. Null with the problem otherwise.
 */
export function typedLabelCode(first: string, check: string): { code: string } | { problem: LabelProblem; field: 'sn' | 'check' } {
  const value = first.trim();
  if (value === '') return { problem: 'required', field: 'sn' };
  if (isWholeLabel(value)) return { code: value };
  if (!SN.test(value)) return { problem: 'snInvalid', field: 'sn' };
  const c = check.trim();
  if (c === '') return { problem: 'checkRequired', field: 'check' };
  if (!CHECK_CODE.test(c)) return { problem: 'checkInvalid', field: 'check' };
  return { code: `${value} ${c.toUpperCase()}` };
}

/** The address of the page that shows a label: /apps/info?code=… */
export function labelPagePath(code: string): string {
  return `/apps/info?code=${encodeURIComponent(code.trim())}`;
}

export interface TypedLabel {
  sn?: string;
  check?: string;
}

/**
 * A form rule (antd's and antd-mobile's alike) checking one of the two label fields, with the
 * message for its problem.
 */
export function labelFieldRule(values: () => TypedLabel, field: 'sn' | 'check', message: (problem: LabelProblem) => string) {
  return {
    validator: () => {
      const { sn = '', check = '' } = values();
      const result = typedLabelCode(sn, check);
      if ('problem' in result && result.field === field) return Promise.reject(new Error(message(result.problem)));
      return Promise.resolve();
    },
  };
}
