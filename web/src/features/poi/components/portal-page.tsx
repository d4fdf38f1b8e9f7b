import { Card, ConfigProvider, Flex, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { FullPageMessage } from '@/components/full-page-message';
import { PageLoading } from '@/components/page-loading';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { farmZoneLabel, setFarmZone } from '@/lib/farm-time';
import { formatDateTime, formatValue } from '@/lib/format';
import { indexReadings } from '@/lib/telemetry/readings';
import { useLang } from '@/lib/use-lang';
import { missingState, portalTarget, usePortalDevice, usePortalMetadata, usePortalTheme, type PortalState } from '../api/portal';
import { HEADER_PARAMS } from '../lib/params';
import { DeviceCommands } from './commands-card';
import { RealtimeCard } from './realtime-card';
import './poi.css';

const STATUS_COLOR: Record<string, string> = { online: 'success', offline: 'default', fault: 'error', idle: 'default' };

/**
 * The unified portal (/uni-portal/{sn}#k={token}): one device's readings, its controls and its
 * control record for whoever holds the link its owner made; no login. Without a valid link the page
 * does not exist, says so, and goes to the login page on its own after a few seconds.
 */
export function PortalPage({ sn, token }: { sn: string; token: string }) {
  const { t } = useTranslation('poi');
  const lang = useLang();
  const target = useMemo(() => portalTarget(sn, token), [sn, token]);
  const page = usePortalDevice(target, lang);
  const metadata = usePortalMetadata(target, lang, page.isSuccess);
  const theme = usePortalTheme(lang);
  const zone = page.data?.timezone;
  useEffect(() => setFarmZone(zone), [zone]);
  const readings = useMemo(() => indexReadings(page.data?.latest ?? []), [page.data]);

  const missing = missingState(page.error) ?? missingState(metadata.error);
  if (missing) return <PortalMissing state={missing} />;
  if (page.error) return <ServerErrorAlert error={page.error} />;
  if (!page.data) return <PageLoading />;
  const { device } = page.data;
  const params = (metadata.data?.params ?? []).filter((p) => !HEADER_PARAMS.has(p.id));

  return (
    <ConfigProvider theme={theme.data ? { token: { colorPrimary: theme.data.primaryColor } } : undefined}>
      <div className="fw-portal" data-testid="portal-page">
        <Card variant="borderless" className="fw-poi-section fw-portal__head">
          <Typography.Text type="secondary" className="fw-portal__brand">
            {theme.data?.title ?? t('portal.title')}
          </Typography.Text>
          <Typography.Title level={3} className="fw-portal__name">
            {device.name}
          </Typography.Title>
          <Flex gap={8} wrap align="center">
            <Tag color={STATUS_COLOR[device.status] ?? 'default'} data-testid="portal-status">
              {device.statusName}
            </Tag>
            <Typography.Text type="secondary">
              {device.typeName} · {device.sn}
            </Typography.Text>
            {device.battery !== null && (
              <Typography.Text type={device.lowBattery ? 'danger' : 'secondary'}>{t('portal.battery', { value: formatValue(device.battery, 0) })}</Typography.Text>
            )}
          </Flex>
          <Typography.Paragraph type="secondary" className="fw-portal__note">
            {device.lastReportTime ? t('portal.lastReport', { time: formatDateTime(device.lastReportTime) }) : t('portal.never')}{' '}
            {t('portal.zone', { zone: farmZoneLabel() })}
          </Typography.Paragraph>
        </Card>
        {metadata.error ? (
          <ServerErrorAlert error={metadata.error} />
        ) : metadata.data ? (
          params.length > 0 && <RealtimeCard params={params} nodes={metadata.data.nodes} readings={readings} lastReportTime={device.lastReportTime} />
        ) : (
          <PageLoading />
        )}
        <DeviceCommands target={target} showBy={false} recordAlways noRightNote={t('portal.viewOnly')} />
        <Typography.Paragraph type="secondary" className="fw-portal__footer">
          {t('portal.footer')}
        </Typography.Paragraph>
      </div>
    </ConfigProvider>
  );
}

/** 'The page does not exist', and the way on: to the login page, on its own after a countdown. */
function PortalMissing({ state }: { state: PortalState }) {
  const { t } = useTranslation('poi');
  const navigate = useNavigate();
  const to = state.redirect?.to ?? '/login';
  const [left, setLeft] = useState(state.redirect?.seconds ?? 5);
  useEffect(() => {
    if (left <= 0) {
      void navigate(to, { replace: true });
      return;
    }
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, navigate, to]);
  return (
    <FullPageMessage
      code="404"
      title={state.message.title}
      description={
        <>
          {state.message.content}
          <br />
          <span data-testid="portal-redirect">{t('portal.redirect', { count: Math.max(left, 0) })}</span>
        </>
      }
      action={
        <Link className="fw-button" to={to} replace>
          {t('portal.goNow')}
        </Link>
      }
    />
  );
}
