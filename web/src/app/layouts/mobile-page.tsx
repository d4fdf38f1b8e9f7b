import { NavBar } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../route-handle';

interface MobilePageProps {
  children: ReactNode;
  /** Where the back arrow leads; no arrow when omitted. */
  backTo?: string;
  title?: ReactNode;
  right?: ReactNode;
}

/** A phone screen with a navigation bar titled after the route. */
export function MobilePage({ children, backTo, title, right }: MobilePageProps) {
  const navigate = useNavigate();
  const routeTitle = usePageTitle();
  return (
    <div className="fw-mobile-page">
      <NavBar
        className="fw-mobile-page__bar"
        back={backTo ? '' : null}
        onBack={backTo ? () => void navigate(backTo) : undefined}
        right={right}
      >
        {title ?? routeTitle}
      </NavBar>
      <div className="fw-mobile-page__body">{children}</div>
    </div>
  );
}
