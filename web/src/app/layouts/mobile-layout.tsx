import { Navigate, Outlet, useLocation } from 'react-router';
import { useMobileMode } from '@/lib/mobile-mode';
import { DesktopDeviceRedirect } from '../desktop-device-redirect';
import { desktopEquivalent } from '../mobile-redirect';

/** The frame of every phone screen; out of mobile mode it leaves for the desktop screen of the same thing. */
export function MobileLayout() {
  const mobile = useMobileMode();
  const { pathname } = useLocation();
  const desktop = mobile ? null : desktopEquivalent(pathname);
  if (typeof desktop === 'string') return <Navigate to={desktop} replace />;
  if (desktop) return <DesktopDeviceRedirect key={`${desktop.hashId}/${desktop.deviceId}`} {...desktop} />;
  return (
    <div className="fw-mobile">
      <Outlet />
    </div>
  );
}
