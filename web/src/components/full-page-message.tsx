import type { ReactNode } from 'react';
import { LogoMark } from './logo';

interface FullPageMessageProps {
  /** A short code shown large above the title (404, 500), or nothing. */
  code?: string;
  title: ReactNode;
  description?: ReactNode;
  /** The way on: a button or a link styled as one (fw-button). */
  action?: ReactNode;
}

/**
 * A page that says what happened and the way on (not found, a crash, a failed start), drawn
 * without antd: it must show when antd itself failed to load.
 */
export function FullPageMessage({ code, title, description, action }: FullPageMessageProps) {
  return (
    <div className="fw-fullpage">
      <div className="fw-message" role="alert">
        {code ? (
          <p className="fw-message__code" aria-hidden="true">
            {code}
          </p>
        ) : (
          <LogoMark size={48} />
        )}
        <h1 className="fw-message__title">{title}</h1>
        {description ? <p className="fw-message__text">{description}</p> : null}
        {action ? <div className="fw-message__action">{action}</div> : null}
      </div>
    </div>
  );
}
