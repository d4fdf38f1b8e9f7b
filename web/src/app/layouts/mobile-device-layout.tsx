import { Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { AntdProviders } from '../antd-shell';
import { MobilePage } from './mobile-page';

const sections = ['realtime', 'history', 'about'] as const;

/** One device on the phone: real-time, history and about tabs. */
export function MobileDeviceLayout() {
  const { t } = useTranslation('nav');
  const { hashId = '', deviceId = '' } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const base = `/apps/mobile/poi/${encodeURIComponent(hashId)}/${encodeURIComponent(deviceId)}`;
  const active = sections.find((section) => pathname.startsWith(`${base}/${section}`)) ?? 'realtime';

  return (
    <MobilePage backTo={pathname.startsWith(`${base}/about/profile`) ? `${base}/about` : paths.mobile.devices}>
      <Tabs activeKey={active} onChange={(key) => void navigate(`${base}/${key}`)} className="fw-mobile-device-tabs">
        {sections.map((section) => (
          <Tabs.Tab key={section} title={t(`pages.${section}`)} />
        ))}
      </Tabs>
      {/* A device's screens share some of the desktop's pieces (summaries, charts) drawn with antd. */}
      <AntdProviders>
        <Outlet />
      </AntdProviders>
    </MobilePage>
  );
}
