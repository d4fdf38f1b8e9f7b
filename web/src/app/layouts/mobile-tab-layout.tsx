import { AppOutline, MessageOutline, UserOutline } from 'antd-mobile-icons';
import { TabBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useUnreadCount } from '@/features/events/api/get-unread-count';
import { badgeText } from '@/features/mobile-messages/list-state';

const tabs = [
  { key: paths.mobile.devices, title: 'mobileDevices', icon: <AppOutline /> },
  { key: paths.mobile.messages, title: 'messages', icon: <MessageOutline /> },
  { key: paths.mobile.profile, title: 'profile', icon: <UserOutline /> },
] as const;

/** The phone home: devices, messages and profile behind a bottom tab bar. */
export function MobileTabLayout() {
  const { t } = useTranslation('nav');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { data: unread } = useUnreadCount();
  const active = tabs.find((tab) => pathname.startsWith(tab.key))?.key ?? paths.mobile.devices;

  return (
    <div className="fw-mobile-tabs">
      <div className="fw-mobile-tabs__body">
        <Outlet />
      </div>
      <div className="fw-mobile-tabs__bar">
        <TabBar activeKey={active} onChange={(key) => void navigate(key)} safeArea>
          {tabs.map((tab) => (
            <TabBar.Item
              key={tab.key}
              icon={tab.icon}
              title={t(`pages.${tab.title}`)}
              badge={tab.key === paths.mobile.messages ? badgeText(unread) : undefined}
            />
          ))}
        </TabBar>
      </div>
    </div>
  );
}

