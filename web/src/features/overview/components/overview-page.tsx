import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FarmZoneNote } from '@/components/farm-zone-note';
import { PageLoading } from '@/components/page-loading';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { paths } from '@/config/paths';
import { deviceDetailPath } from '@/lib/detail-path';
import { farmTime } from '@/lib/farm-time';
import { formatDateTime, formatRelativeTime, formatValue, MISSING } from '@/lib/format';
import { useLang } from '@/lib/use-lang';
import { ATTENTION_REASONS, useOverview, type Amount, type AttentionDevice, type ChannelHealth, type Overview, type OverviewType, type Place } from '../api/get-overview';
import { deviceListPath, hourBars, statusSegments, type StatusGroup } from '../overview';
import './overview.css';

const GROUP_STATUS: Partial<Record<StatusGroup, string>> = { online: 'online', lowpower: 'lowpower', offline: 'offline', fault: 'fault' };

function PlaceLink({ place }: { place: Place }) {
  const to = deviceDetailPath(place);
  return to ? <Link to={to}>{place.name}</Link> : <span>{place.name}</span>;
}

/** A figure of the top row: what it is, the number, and a line saying what it covers. */
function Figure({ label, value, unit, detail, tone, to, testId }: { label: string; value: string | number; unit?: string; detail?: React.ReactNode; tone?: 'good' | 'warn' | 'bad'; to?: string; testId: string }) {
  const body = (
    <>
      <div className="fw-overview-figure__label">{label}</div>
      <div className="fw-overview-figure__value">
        {value}
        {unit ? <span className="fw-overview-figure__unit">{unit}</span> : null}
      </div>
      <div className="fw-overview-figure__detail">{detail ?? '\u00a0'}</div>
    </>
  );
  const cls = `fw-overview-figure${tone ? ` fw-overview-figure--${tone}` : ''}`;
  return to ? (
    <Link to={to} className={cls} data-testid={testId}>
      {body}
    </Link>
  ) : (
    <div className={cls} data-testid={testId}>
      {body}
    </div>
  );
}

function StatusBar({ status, total }: { status: Record<string, number>; total: number }) {
  const { t } = useTranslation('overview');
  const segments = statusSegments(status);
  return (
    <div data-testid="overview-status">
      <div className="fw-overview-bar" role="img" aria-label={segments.map((s) => `${t(`group.${s.group}`)} ${s.count}`).join(', ')}>
        {segments
          .filter((s) => s.count > 0)
          .map((s) => (
            <span key={s.group} className={`fw-overview-bar__seg fw-overview-bar__seg--${s.group}`} style={{ width: `${s.percent}%` }} />
          ))}
      </div>
      <ul className="fw-overview-legend">
        {segments.map((s) => {
          const st = GROUP_STATUS[s.group];
          const label = (
            <>
              <span className={`fw-overview-dot fw-overview-dot--${s.group}`} />
              {t(`group.${s.group}`)} <b>{s.count}</b>
              {total > 0 && <Typography.Text type="secondary"> · {Math.round(s.percent)}%</Typography.Text>}
            </>
          );
          return (
            <li key={s.group} data-group={s.group} data-count={s.count}>
              {st ? <Link to={deviceListPath({ status: st })}>{label}</Link> : label}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function reasonText(t: TFunction<'overview'>, d: AttentionDevice, reason: string): string {
  switch (reason) {
    case 'lowBattery':
      return d.battery !== null ? t('reason.lowBatteryV', { v: formatValue(d.battery, 2) }) : t('reason.lowBattery');
    case 'fault':
      return d.faults.length ? t('reason.faultCodes', { codes: d.faults.join(', ') }) : t('reason.fault');
    case 'gap':
      return d.gapFrom !== null && d.gapTo !== null ? t('reason.gapSpan', { from: farmTime(d.gapFrom).format('MM-DD HH:mm'), to: farmTime(d.gapTo).format('MM-DD HH:mm') }) : t('reason.gap');
    case 'offline':
      return d.lastReportTime === null ? t('reason.never') : t('reason.silentSince', { time: farmTime(d.lastReportTime).format('MM-DD HH:mm') });
    default:
      return t(`reason.${reason as 'offline'}`);
  }
}

const STATUS_COLOR: Record<string, string> = { online: 'success', offline: 'default', lowpower: 'warning', fault: 'error' };

const REASON_COLOR: Record<string, string> = { fault: 'error', offline: 'default', lowBattery: 'warning', gap: 'processing' };

function AttentionList({ o }: { o: Overview }) {
  const { t } = useTranslation('overview');
  const columns: ColumnsType<AttentionDevice> = [
    {
      title: t('col.device'),
      key: 'name',
      render: (_, d) => {
        const to = deviceDetailPath(d);
        return (
          <span className="fw-overview-device">
            {to ? <Link to={to}>{d.name}</Link> : d.name}
            <Typography.Text type="secondary" className="fw-overview-device__sn">
              {d.typeName} · {d.sn}
            </Typography.Text>
          </span>
        );
      },
    },
    {
      title: t('col.status'),
      key: 'status',
      width: 110,
      render: (_, d) => (
        <Tag color={STATUS_COLOR[d.status] ?? 'default'} data-status={d.status}>
          {d.statusName}
        </Tag>
      ),
    },
    {
      title: t('col.why'),
      key: 'reasons',
      render: (_, d) => (
        <Flex wrap gap={4}>
          {d.reasons.map((r) => (
            <Tag key={r} color={REASON_COLOR[r]} data-reason={r}>
              {reasonText(t, d, r)}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('col.lastReport'),
      key: 'last',
      width: 170,
      render: (_, d) =>
        d.lastReportTime === null ? (
          <Typography.Text type="secondary">{t('never')}</Typography.Text>
        ) : (
          <Tooltip title={formatDateTime(d.lastReportTime)}>
            <span>{formatRelativeTime(d.lastReportTime, o.generatedAt)}</span>
          </Tooltip>
        ),
    },
  ];
  const counts = o.attention.counts;
  return (
    <Card
      variant="borderless"
      title={t('attention.title')}
      extra={
        <Flex wrap gap={6}>
          {ATTENTION_REASONS.map((r) => (
            <Tag key={r} color={counts[r] > 0 ? REASON_COLOR[r] : undefined} data-testid={`overview-reason-${r}`} data-count={counts[r]}>
              {t(`reason.${r}`)} {counts[r]}
            </Tag>
          ))}
        </Flex>
      }
      data-testid="overview-attention"
    >
      {o.attention.devices.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('attention.none')} />
      ) : (
        <>
          <Table<AttentionDevice> rowKey="id" size="small" columns={columns} dataSource={o.attention.devices} pagination={false} scroll={{ x: 640 }} />
          {o.attention.total > o.attention.devices.length && (
            <Typography.Paragraph type="secondary" className="fw-overview-more">
              {t('attention.more', { shown: o.attention.devices.length, total: o.attention.total })}
            </Typography.Paragraph>
          )}
        </>
      )}
    </Card>
  );
}

function AlertHours({ o }: { o: Overview }) {
  const { t } = useTranslation('overview');
  const bars = hourBars(o.alerts.hourly, o.generatedAt);
  return (
    <Card variant="borderless" title={t('alerts.title', { hours: o.hours })} extra={<Link to={paths.events}>{t('alerts.open')}</Link>} data-testid="overview-alerts">
      <Flex gap={24} wrap className="fw-overview-alerts__figures">
        <span>
          {t('alerts.total')} <b data-testid="overview-alerts-total">{o.alerts.total}</b>
        </span>
        <span>
          {t('alerts.alarm')} <b>{o.alerts.levels.alarm ?? 0}</b>
        </span>
        <span>
          {t('alerts.normal')} <b>{o.alerts.levels.normal ?? 0}</b>
        </span>
        <span>
          {t('alerts.devices')} <b>{o.alerts.devices}</b>
        </span>
      </Flex>
      <div className="fw-overview-hours" role="img" aria-label={t('alerts.chart', { total: o.alerts.total })}>
        {bars.map((b) => (
          <Tooltip key={b.start} title={t('alerts.hour', { time: b.label, count: b.count })}>
            <span className="fw-overview-hours__bar">
              <span className="fw-overview-hours__fill" style={{ height: `${Math.max(b.percent, b.count > 0 ? 6 : 0)}%` }} />
            </span>
          </Tooltip>
        ))}
      </div>
      <Flex justify="space-between" className="fw-overview-hours__axis">
        <Typography.Text type="secondary">{bars[0]?.label}</Typography.Text>
        <Typography.Text type="secondary">{t('alerts.now')}</Typography.Text>
      </Flex>
    </Card>
  );
}

function amountDetail(t: TFunction<'overview'>, a: Amount, unit: string, digits: number) {
  if (!a.devices || !a.min || !a.max) return t('water.none');
  return (
    <>
      {t('water.range', { count: a.devices })}{' '}
      <PlaceLink place={a.min} /> {formatValue(a.min.value, digits)} {unit} – <PlaceLink place={a.max} /> {formatValue(a.max.value, digits)} {unit}
    </>
  );
}

function PushHealth({ channels }: { channels: ChannelHealth[] }) {
  const { t } = useTranslation('overview');
  const color = { ok: 'success', failing: 'error', late: 'warning', off: 'default' } as const;
  return (
    <Card variant="borderless" title={t('push.title')} extra={<Link to={paths.dataPush.root}>{t('push.open')}</Link>} data-testid="overview-push">
      {channels.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<Link to={paths.dataPush.root}>{t('push.none')}</Link>} />
      ) : (
        <ul className="fw-overview-channels">
          {channels.map((c) => (
            <li key={c.id} data-testid="overview-channel" data-health={c.health}>
              <Flex justify="space-between" align="center" gap={8}>
                <Link to={`${paths.dataPush.log}?channelId=${c.id}`}>{c.name}</Link>
                <Tag color={color[c.health]}>{t(`push.health.${c.health}`)}</Tag>
              </Flex>
              <Typography.Text type="secondary" className="fw-overview-channels__line">
                {t('push.line', { pending: c.pending, failed: c.failed })}
                {c.lastError ? ` · ${c.lastError}` : ''}
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function TypeTable({ types }: { types: OverviewType[] }) {
  const { t } = useTranslation('overview');
  const n = (v: number | undefined) => (v ? v : <Typography.Text type="secondary">0</Typography.Text>);
  const columns: ColumnsType<OverviewType> = [
    {
      title: t('col.type'),
      key: 'type',
      render: (_, ty) => (
        <span className="fw-overview-device">
          <Link to={deviceListPath({ typeId: ty.typeId })}>{ty.name}</Link>
          <Typography.Text type="secondary" className="fw-overview-device__sn">
            {ty.model}
            {ty.slave ? ` · ${t('slave')}` : ''}
          </Typography.Text>
        </span>
      ),
    },
    { title: t('col.total'), dataIndex: 'total', align: 'right', width: 80 },
    { title: t('group.online'), key: 'online', align: 'right', width: 80, render: (_, ty) => n(ty.status.online) },
    { title: t('group.offline'), key: 'offline', align: 'right', width: 80, render: (_, ty) => n(ty.status.offline) },
    { title: t('group.lowpower'), key: 'lowpower', align: 'right', width: 90, render: (_, ty) => n(ty.status.lowpower) },
    { title: t('group.fault'), key: 'fault', align: 'right', width: 80, render: (_, ty) => n(ty.status.fault) },
    {
      title: t('group.notDeployed'),
      key: 'other',
      align: 'right',
      width: 100,
      render: (_, ty) => n(ty.total - (ty.status.online ?? 0) - (ty.status.offline ?? 0) - (ty.status.lowpower ?? 0) - (ty.status.fault ?? 0)),
    },
  ];
  return (
    <Card variant="borderless" title={t('types.title')} data-testid="overview-types">
      <Table<OverviewType> rowKey={(ty) => `${ty.typeId}-${ty.slave}`} size="small" columns={columns} dataSource={types} pagination={false} scroll={{ x: 600 }} />
    </Card>
  );
}

/**
 * /apps/overview: the fleet at a glance — devices by status and type, the ones needing a look and
 * why, the last day's alerts, today's rain and yesterday's ET0 across the farm, and whether data
 * still reaches the farm's own systems. One request, refreshed every minute while open.
 */
export function OverviewPage() {
  const { t } = useTranslation('overview');
  const lang = useLang();
  const q = useOverview(lang);
  const o = q.data;
  return (
    <div className="fw-page fw-overview" data-testid="overview">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={4} className="fw-page__title">
          {t('title')}
        </Typography.Title>
        <Flex align="center" gap={8} wrap>
          {o && (
            <Typography.Text type="secondary" data-testid="overview-as-of">
              {t('asOf', { time: farmTime(o.generatedAt).format('HH:mm') })}
            </Typography.Text>
          )}
          <FarmZoneNote />
          <Button icon={<ReloadOutlined />} onClick={() => void q.refetch()} loading={q.isFetching} aria-label={t('refresh')}>
            {t('refresh')}
          </Button>
        </Flex>
      </Flex>
      <ServerErrorAlert error={q.error} />
      {q.isPending ? (
        <PageLoading />
      ) : o ? (
        <>
          <div className="fw-overview-figures">
            <Figure testId="overview-devices" label={t('figure.devices')} value={o.devices.total} to={paths.devices} detail={t('figure.online', { count: o.devices.status.online ?? 0 })} />
            <Figure
              testId="overview-needing"
              label={t('figure.attention')}
              value={o.attention.total}
              tone={o.attention.total > 0 ? 'warn' : 'good'}
              detail={o.attention.total > 0 ? t('figure.attentionDetail', { fault: o.attention.counts.fault, offline: o.attention.counts.offline }) : t('figure.allWell')}
            />
            <Figure testId="overview-alert-count" label={t('figure.alerts', { hours: o.hours })} value={o.alerts.total} tone={o.alerts.total > 0 ? 'bad' : 'good'} to={paths.events} detail={t('figure.alertDevices', { count: o.alerts.devices })} />
            <Figure
              testId="overview-rain"
              label={t('figure.rain')}
              value={o.rain.mean === null ? MISSING : formatValue(o.rain.mean, 1)}
              unit={o.rain.mean === null ? undefined : 'mm'}
              detail={o.rain.devices ? t('figure.rainDetail', { wet: o.rain.wet ?? 0, count: o.rain.devices }) : t('water.none')}
            />
            <Figure
              testId="overview-et0"
              label={t('figure.et0')}
              value={o.et0.mean === null ? MISSING : formatValue(o.et0.mean, 2)}
              unit={o.et0.mean === null ? undefined : 'mm'}
              detail={o.et0.devices ? t('figure.et0Detail', { count: o.et0.devices }) : t('water.none')}
            />
            <Figure
              testId="overview-push-figure"
              label={t('figure.push')}
              value={o.push.channels.length === 0 ? MISSING : o.push.failing === 0 ? t('figure.pushOk') : t('figure.pushFailing', { n: o.push.failing })}
              tone={o.push.channels.length === 0 ? undefined : o.push.failing > 0 ? 'bad' : 'good'}
              to={paths.dataPush.root}
              detail={t('figure.pushDetail', { count: o.push.channels.length })}
            />
          </div>
          <Card variant="borderless" title={t('status.title')}>
            <StatusBar status={o.devices.status} total={o.devices.total} />
          </Card>
          <AttentionList o={o} />
          <div className="fw-overview-columns">
            <AlertHours o={o} />
            <Card variant="borderless" title={t('water.title')} data-testid="overview-water">
              <dl className="fw-overview-water">
                <dt>{t('water.rain', { day: o.rain.day })}</dt>
                <dd>
                  <b>{o.rain.mean === null ? MISSING : `${formatValue(o.rain.mean, 1)} mm`}</b> <Typography.Text type="secondary">{t('water.mean')}</Typography.Text>
                  <div className="fw-overview-water__range">{amountDetail(t, o.rain, 'mm', 1)}</div>
                </dd>
                <dt>{t('water.et0', { day: o.et0.day })}</dt>
                <dd>
                  <b>{o.et0.mean === null ? MISSING : `${formatValue(o.et0.mean, 2)} mm`}</b> <Typography.Text type="secondary">{t('water.mean')}</Typography.Text>
                  <div className="fw-overview-water__range">{amountDetail(t, o.et0, 'mm', 2)}</div>
                </dd>
              </dl>
              <Flex gap={16} wrap>
                <Link to={paths.et0}>{t('water.et0Map')}</Link>
                <Link to={paths.exper}>{t('water.coefficient')}</Link>
              </Flex>
            </Card>
            <PushHealth channels={o.push.channels} />
          </div>
          <TypeTable types={o.devices.types} />
        </>
      ) : null}
    </div>
  );
}
