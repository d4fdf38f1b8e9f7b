import { ConfigProvider } from 'antd-mobile';
import mobileEnUS from 'antd-mobile/es/locales/en-US';
import mobileZhCN from 'antd-mobile/es/locales/zh-CN';
import mobileZhTW from 'antd-mobile/es/locales/zh-TW';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { currentLanguage, type Language } from '@/lib/i18n';
import { useMobileMotion } from '@/lib/mobile-motion';
import { installMobileRender } from '@/lib/mobile-render';
import { useMobileMode } from '@/lib/mobile-mode';
import { DesktopDeviceRedirect } from '../desktop-device-redirect';
import { desktopEquivalent } from '../mobile-redirect';

const MOBILE_LOCALES = { zh_CN: mobileZhCN, zh_TW: mobileZhTW, en_US: mobileEnUS } satisfies Record<Language, unknown>;

// antd-mobile, its texts and its imperative render hook load with the phone screens, not before.
installMobileRender();

/** The frame of every phone screen; out of mobile mode it leaves for the desktop screen of the same thing. */
export function MobileLayout() {
  // Subscribes to language changes, so antd-mobile's own texts switch with the app.
  useTranslation();
  useMobileMotion();
  const mobile = useMobileMode();
  const { pathname } = useLocation();
  const desktop = mobile ? null : desktopEquivalent(pathname);
  if (typeof desktop === 'string') return <Navigate to={desktop} replace />;
  if (desktop) return <DesktopDeviceRedirect key={`${desktop.hashId}/${desktop.deviceId}`} {...desktop} />;
  return (
    <ConfigProvider locale={MOBILE_LOCALES[currentLanguage()]}>
      <div className="fw-mobile">
        <Outlet />
      </div>
    </ConfigProvider>
  );
}
