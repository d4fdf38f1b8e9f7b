import { Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { paths } from '@/config/paths';
import { ADVICE_PAGES } from '@/features/advice/api/get-devices';
import { useMobileDevice } from '@/features/mobile-poi/components/use-device';
import { backTarget, type OpenedFrom } from '@/lib/mobile-back';
import { AntdProviders } from '../antd-shell';
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
  const onProfile = pathname.startsWith(`${base}/about/profile`);
  // History and about name the device at the top (the real-time page names it in its first card,
  // under its type's title); the profile keeps its own title.
  const { id, info } = useMobileDevice();
  const title = active !== 'realtime' && !onProfile ? info.data?.name : undefined;
  // A soil probe, station, gauge or trap has farm advice: one tap from its page.
  const advisable = info.data && (ADVICE_PAGES as readonly string[]).includes(info.data.page);
  const advice = advisable ? (
    <button
      type="button"
      className="fw-mobile-page__action"
      onClick={() => void navigate(`${paths.mobile.advice}?device=${id}`, { state: { from: pathname, fromState: carried } })}
      data-testid="m-device-advice"
    >
      {t('pages.advice')}
    </button>
  ) : undefined;
  // An address without the device's id (from a rain gauge's desktop link) gets it once known;
  // meanwhile nothing asks for a device 0. A hash of no device of the caller's goes to the list.
  if (id === 0) {
    if (info.data?.id) {
      const resolved = `/apps/mobile/poi/${encodeURIComponent(hashId)}/${info.data.id}`;
      return <Navigate to={resolved + pathname.slice(base.length)} state={state} replace />;
    }
    if (info.error) return <Navigate to={from} replace />;
    return <PageLoading />;
  }

  return (
    <MobilePage backTo={onProfile ? `${base}/about` : from} backState={carried} title={title} right={advice}>
      <Tabs activeKey={active} onChange={(key) => void navigate(`${base}/${key}`, { state: carried })} className="fw-mobile-device-tabs">
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
