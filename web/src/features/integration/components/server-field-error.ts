import type { FormInstance } from 'antd';
import { isApiError } from '@/lib/api-client';

/**
 * Shows a refusal that names a field of the form under that field, as the form's own checks do.
 * Returns false when the error names no field of the form, for the caller to show it otherwise.
 */
export function showFieldError(form: FormInstance, error: unknown, fields: readonly string[]): boolean {
  if (isApiError(error) && error.kind === 'normal' && error.field && fields.includes(error.field)) {
    form.setFields([{ name: error.field, errors: [error.message] }]);
    form.scrollToField(error.field, { block: 'center' });
    return true;
  }
  return false;
}
