import { Alert } from 'antd';
import { isApiError, errorMessage } from '@/lib/api-client';

/**
 * Shows why a call failed, under the form or block that made it. Session and fatal errors are
 * handled globally (redirect, dialog), so they render nothing here.
 */
export function ServerErrorAlert({ error, className }: { error: unknown; className?: string }) {
  if (!error) return null;
  if (isApiError(error) && (error.kind === 'session' || error.kind === 'fatal')) return null;
  const titled = isApiError(error) && error.title !== '';
  return (
    <Alert
      className={className}
      type="error"
      showIcon
      role="alert"
      title={titled ? error.title : errorMessage(error)}
      description={titled ? error.content : undefined}
    />
  );
}
