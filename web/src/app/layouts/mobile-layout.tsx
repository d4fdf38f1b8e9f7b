import { ConfigProvider } from 'antd-mobile';
import mobileEnUS from 'antd-mobile/es/locales/en-US';
import mobileZhCN from 'antd-mobile/es/locales/zh-CN';
import mobileZhTW from 'antd-mobile/es/locales/zh-TW';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { currentLanguage, type Language } from '@/lib/i18n';
import { installMobileRender } from '@/lib/mobile-render';

const MOBILE_LOCALES = { zh_CN: mobileZhCN, zh_TW: mobileZhTW, en_US: mobileEnUS } satisfies Record<Language, unknown>;

// antd-mobile, its texts and its imperative render hook load with the phone screens, not before.
installMobileRender();

/** The frame of every phone screen. */
export function MobileLayout() {
  // Subscribes to language changes, so antd-mobile's own texts switch with the app.
  useTranslation();
  return (
    <ConfigProvider locale={MOBILE_LOCALES[currentLanguage()]}>
      <div className="fw-mobile">
        <Outlet />
      </div>
    </ConfigProvider>
  );
}
