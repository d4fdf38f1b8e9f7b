import { Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { backTarget, type OpenedFrom } from '@/lib/mobile-back';
import { MobilePage } from './mobile-page';

const sections = ['realtime', 'history', 'about'] as const;

/**
 * One device on the phone: real-time, history and about tabs. The back arrow returns to the tab
 * the device was opened from (the messages with their filters, the map…), the devices otherwise;
 * that address travels in the router state from section to section.
 */
export function MobileDeviceLayout() {
  const { t } = useTranslation('nav');
  const { hashId = '', deviceId = '' } = useParams();
  const { pathname, state } = useLocation();
  const navigate = useNavigate();
  const base = `/apps/mobile/poi/${encodeURIComponent(hashId)}/${encodeURIComponent(deviceId)}`;
  const active = sections.find((section) => pathname.startsWith(`${base}/${section}`)) ?? 'realtime';
  const from = backTarget(state, paths.mobile.devices);
  const carried: OpenedFrom = { from };

  return (
    <MobilePage backTo={pathname.startsWith(`${base}/about/profile`) ? `${base}/about` : from} backState={carried}>
      <Tabs activeKey={active} onChange={(key) => void navigate(`${base}/${key}`, { state: carried })} className="fw-mobile-device-tabs">
        {sections.map((section) => (
          <Tabs.Tab key={section} title={t(`pages.${section}`)} />
        ))}
      </Tabs>
      <Outlet />
    </MobilePage>
  );
}
