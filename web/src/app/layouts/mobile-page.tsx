import { NavBar } from 'antd-mobile';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../route-handle';

interface MobilePageProps {
  children: ReactNode;
  /** Where the back arrow leads; no arrow when omitted. */
  backTo?: string;
  /** Router state given to the back arrow's address. */
  backState?: unknown;
  title?: ReactNode;
  right?: ReactNode;
}

/** A phone screen with a navigation bar titled after the route. */
export function MobilePage({ children, backTo, backState, title, right }: MobilePageProps) {
  const navigate = useNavigate();
  const routeTitle = usePageTitle();
  const { t } = useTranslation();
  const page = useRef<HTMLDivElement>(null);
  // NavBar marks its left slot role="button" whether or not it holds the back arrow, and the arrow
  // alone names nothing: name the slot "Back", or take the role away when there is no arrow.
  useLayoutEffect(() => {
    const left = page.current?.querySelector('.adm-nav-bar-left');
    if (!left) return;
    if (backTo) {
      left.setAttribute('role', 'button');
      left.setAttribute('aria-label', t('actions.back'));
    } else {
      left.removeAttribute('role');
      left.removeAttribute('aria-label');
    }
  }, [backTo, t]);
  return (
    <div className="fw-mobile-page" ref={page}>
      <NavBar
        className="fw-mobile-page__bar"
        back={backTo ? '' : null}
        onBack={backTo ? () => void navigate(backTo, { state: backState }) : undefined}
        right={right}
      >
        {title ?? routeTitle}
      </NavBar>
      <div className="fw-mobile-page__body">{children}</div>
    </div>
  );
}
