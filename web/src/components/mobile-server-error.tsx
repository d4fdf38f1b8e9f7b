import { isApiError, errorMessage } from '@/lib/api-client';

/** The phone counterpart of ServerErrorAlert: a plain red notice under the form. */
export function MobileServerError({ error }: { error: unknown }) {
  if (!error) return null;
  if (isApiError(error) && (error.kind === 'session' || error.kind === 'fatal')) return null;
  const titled = isApiError(error) && error.title !== '';
  return (
    <div className="fw-mobile-error" role="alert">
      {titled && <strong>{error.title}</strong>}
      <span>{titled ? error.content : errorMessage(error)}</span>
    </div>
  );
}
