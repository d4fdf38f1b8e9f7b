import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Select, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyChart } from '@/components/charts/lazy-chart';
import { KeyFigure } from '@/components/summary-card';
import { formatDateTime, formatValue, formatWithUnit, MISSING } from '@/lib/format';
import { useThemeMode } from '@/lib/theme';
import { DAY, type Range } from '@/lib/time-range';
import { useEtRoot } from '../api/get-et-root';
import { useInfiltration } from '../api/get-infiltration';
import { useIrrigationRecognition } from '../api/get-irrigation-recognition';
import { getRootDepthQueryOptions } from '../api/get-root-depth';
import { profileOption, rootDepthHistoryOption, rootZoneOption } from '../lib/chart-options';
import type { LayerChange, Pulse, RootDepth, RootLayer } from '../types';
import { DaysPicker, Explicit, Period, TabBody } from './analysis-parts';
import { farmTime } from '@/lib/farm-time';

const SOURCE_COLORS: Record<Pulse['source'], string> = { irrigation: 'blue', rain: 'cyan', unknown: 'default' };

const DROUGHT_GRADES = ['none', 'light', 'moderate', 'severe', 'extreme'] as const;
type DroughtGrade = (typeof DROUGHT_GRADES)[number];
const isDrought = (value: string): value is DroughtGrade => (DROUGHT_GRADES as readonly string[]).includes(value);

/** The times of an event's profile: from the reading before the water arrived to the last layer's peak. */
export function eventWindow(pulse: Pulse, intervalMinutes: number): Range {
  const peaks = pulse.layers.map((l) => l.peakTime ?? 0);
  return { begin: pulse.start - Math.max(1, intervalMinutes) * 60_000, end: Math.max(pulse.start, ...peaks) };
}

interface InfiltrationRow extends LayerChange {
  lagHours: number | null;
}

/** The moisture profile before and after an irrigation or rain event: how deep the water went, and how much each layer kept. */
export function InfiltrationTab({ deviceId, reportInterval }: { deviceId: number; reportInterval?: number }) {
  const { t } = useTranslation('poi');
  const dark = useThemeMode().mode === 'dark';
  const [range, setRange] = useState<Range>({});
  const [chosen, setChosen] = useState<number | null>(null);
  const events = useIrrigationRecognition(deviceId, range);
  const pulses = useMemo(() => [...(events.data?.pulses ?? [])].reverse(), [events.data]);
  const pulse = pulses.find((p) => p.start === chosen) ?? pulses[0] ?? null;
  const window = pulse ? eventWindow(pulse, reportInterval ?? 10) : null;
  const query = useInfiltration(deviceId, window ?? {}, window !== null);
  const data = pulse ? query.data : undefined;
  const rows: InfiltrationRow[] = (data?.layers ?? []).map((l) => ({
    ...l,
    lagHours: pulse?.layers.find((pl) => pl.depth === l.depth)?.lagHours ?? null,
  }));
  const option = useMemo(
    () =>
      data && data.layers.length > 0
        ? profileOption({
            layers: data.layers,
            frontDepth: pulse?.frontDepth,
            labels: {
              before: t('infiltration.before'),
              after: t('infiltration.after'),
              front: (depth) => t('infiltration.frontAt', { depth }),
              depth: (depth) => t('depth', { depth }),
            },
            dark,
          })
        : null,
    [data, pulse, t, dark],
  );
  const columns: ColumnsType<InfiltrationRow> = [
    { title: t('freeze.depth'), dataIndex: 'depth', render: (d: number) => `${d} cm` },
    { title: t('infiltration.before'), dataIndex: 'before', align: 'right', render: (v: number) => formatWithUnit(v, '%', 1) },
    { title: t('infiltration.after'), dataIndex: 'after', align: 'right', render: (v: number) => formatWithUnit(v, '%', 1) },
    {
      title: t('infiltration.change'),
      dataIndex: 'change',
      align: 'right',
      render: (v: number) => (v > 0 ? `+${formatValue(v, 1)}` : formatValue(v, 1)),
    },
    { title: t('infiltration.water'), dataIndex: 'waterMm', align: 'right', render: (v: number) => formatWithUnit(v, 'mm', 1) },
    { title: t('infiltration.arrival'), dataIndex: 'lagHours', align: 'right', render: (v: number | null) => (v === null ? MISSING : v === 0 ? t('infiltration.first') : t('infiltration.afterHours', { hours: formatValue(v, 1) })) },
  ];
  const loading = events.isPending || (pulse !== null && query.isPending);
  return (
    <TabBody
      loading={loading}
      error={events.error ?? (pulse ? query.error : null)}
      toolbar={
        <>
          <DaysPicker range={range} onRange={(r) => {
              setRange(r);
              setChosen(null);
            }} maxDays={366} testId="poi-infiltration-range" />
          {pulses.length > 0 && (
            <Select<number>
              className="fw-poi-analysis__event"
              data-testid="poi-infiltration-event"
              aria-label={t('infiltration.event')}
              value={pulse?.start}
              onChange={setChosen}
              options={pulses.map((p) => ({
                value: p.start,
                label: `${farmTime(p.start).format('MM-DD HH:mm')} · ${t(`irri.sources.${p.source}`)} · ${formatWithUnit(p.amountMm, 'mm', 1)}`,
              }))}
            />
          )}
          {events.data && <Period begin={events.data.begin} end={events.data.end} />}
        </>
      }
    >
      {!pulse ? (
        events.data && (
          <div data-testid="poi-infiltration">
            <Explicit testId="poi-infiltration-empty" text={t('infiltration.noEvent', { mm: events.data.minAmountMm })} />
          </div>
        )
      ) : (
        data && (
          <div data-testid="poi-infiltration">
            <div className="fw-poi-figures">
              <KeyFigure
                label={t('infiltration.event')}
                value={<Tag color={SOURCE_COLORS[pulse.source]}>{t(`irri.sources.${pulse.source}`)}</Tag>}
                detail={formatDateTime(pulse.start)}
              />
              <KeyFigure
                testId="poi-infiltration-stored"
                label={t('infiltration.stored')}
                value={formatValue(data.totalMm, 1)}
                unit="mm"
                detail={t('infiltration.storedHint', { begin: farmTime(data.from).format('MM-DD HH:mm'), end: farmTime(data.to).format('MM-DD HH:mm') })}
              />
              <KeyFigure
                testId="poi-infiltration-front"
                label={t('infiltration.front')}
                value={formatValue(pulse.frontDepth, 0)}
                unit={pulse.frontDepth === null ? undefined : 'cm'}
                detail={pulse.frontSpeed ? t('infiltration.speed', { speed: formatValue(pulse.frontSpeed, 1) }) : undefined}
              />
              {pulse.rainMm !== null && (
                <KeyFigure label={t('irri.rain')} value={formatValue(pulse.rainMm, 1)} unit="mm" detail={t('infiltration.rainHint')} />
              )}
            </div>
            <Typography.Paragraph type="secondary">{t('infiltration.hint')}</Typography.Paragraph>
            {option ? (
              <div className="fw-poi-analysis__split">
                <div className="fw-poi-analysis__split-chart">
                  <LazyChart option={option} height={Math.max(220, 44 * data.layers.length + 60)} label={t('infiltration.chartLabel')} />
                </div>
                <Table<InfiltrationRow>
                  className="fw-poi-analysis__split-table"
                  size="small"
                  rowKey="depth"
                  pagination={false}
                  columns={columns}
                  dataSource={rows}
                  scroll={{ x: true }}
                />
              </div>
            ) : (
              <Explicit testId="poi-infiltration-no-readings" text={t('infiltration.noReadings')} />
            )}
          </div>
        )
      )}
    </TabBody>
  );
}

/** Weeks of root-depth history, each the server's 14-day window ending that week. */
const ROOT_WEEKS = 8;
const ROOT_WINDOW = 14 * DAY;

/** The windows of the history, oldest first, fixed when the tab opens so the queries stay the same. */
export function rootDepthWindows(now: number, weeks = ROOT_WEEKS): Required<Range>[] {
  const end = Math.ceil(now / 60_000) * 60_000;
  return Array.from({ length: weeks }, (_, index) => {
    const to = end - (weeks - 1 - index) * 7 * DAY;
    return { begin: to - ROOT_WINDOW, end: to };
  });
}

interface RootDepthHistory {
  /** One per window, oldest first. */
  windows: UseQueryResult<RootDepth>[];
  /** The windows answered so far: each window's end and its root depth (null: none found). */
  points: { time: number; depth: number | null }[];
  pending: boolean;
}

/** Defined once, so the combined value changes only when an answer does. */
function combineRootDepths(windows: UseQueryResult<RootDepth>[]): RootDepthHistory {
  return {
    windows,
    points: windows.flatMap((q) => (q.data ? [{ time: q.data.end, depth: q.data.rootDepth > 0 ? q.data.rootDepth : null }] : [])),
    pending: windows.some((q) => q.isPending),
  };
}

function useRootDepthHistory(deviceId: number): RootDepthHistory {
  const [windows] = useState(() => rootDepthWindows(Date.now()));
  return useQueries({
    queries: windows.map((window) => getRootDepthQueryOptions(deviceId, window)),
    combine: combineRootDepths,
  });
}

/** The deepest layer whose moisture falls by day and holds by night: where the roots draw water now, and over the weeks. */
export function RootDepthTab({ deviceId, nodes }: { deviceId: number; nodes: readonly number[] }) {
  const { t } = useTranslation('poi');
  const dark = useThemeMode().mode === 'dark';
  const history = useRootDepthHistory(deviceId);
  // The newest window is the server's default: the last 14 days.
  const current = history.windows[history.windows.length - 1];
  const data = current.data;
  const maxDepth = Math.max(10, ...nodes, ...(data?.layers.map((l) => l.depth) ?? []));
  const { points } = history;
  const option = useMemo(
    () =>
      points.some((p) => p.depth !== null)
        ? rootDepthHistoryOption({ points, maxDepth, name: t('rootDepth.depth'), noneLabel: t('rootDepth.noneShort'), dark })
        : null,
    [points, maxDepth, t, dark],
  );
  const usable = (data?.layers ?? []).some((l) => l.days > 0);
  const active = (data?.layers ?? []).filter((l) => l.active).map((l) => `${l.depth} cm`);
  const columns: ColumnsType<RootLayer> = [
    { title: t('freeze.depth'), dataIndex: 'depth', render: (d: number) => `${d} cm` },
    {
      title: t('rootDepth.evidence'),
      dataIndex: 'drawdownDays',
      align: 'right',
      render: (v: number, row) => t('rootDepth.daysOf', { count: row.days, days: v }),
    },
    { title: t('rootDepth.dayDrop'), dataIndex: 'meanDayDrop', align: 'right', render: (v: number, row) => (row.days ? formatWithUnit(v, '%', 2) : MISSING) },
    { title: t('rootDepth.nightDrop'), dataIndex: 'meanNightDrop', align: 'right', render: (v: number, row) => (row.days ? formatWithUnit(v, '%', 2) : MISSING) },
    {
      title: t('rootDepth.roots'),
      dataIndex: 'active',
      render: (v: boolean, row) =>
        v ? <Tag color="green">{t('rootDepth.active')}</Tag> : <Typography.Text type="secondary">{row.days ? t('rootDepth.inactive') : t('rootDepth.noDays')}</Typography.Text>,
    },
  ];
  return (
    <TabBody loading={current.isPending} error={current.error} toolbar={data && <Period begin={data.begin} end={data.end} />}>
      {data && (
        <div data-testid="poi-rootdepth">
          <div className="fw-poi-figures">
            <KeyFigure
              testId="poi-rootdepth-now"
              label={t('rootDepth.depth')}
              value={data.rootDepth > 0 ? formatValue(data.rootDepth, 0) : t('rootDepth.noneShort')}
              unit={data.rootDepth > 0 ? 'cm' : undefined}
              accent={data.rootDepth > 0 ? '#52c41a' : undefined}
              detail={active.length ? t('rootDepth.activeLayers', { depths: active.join(t('listSeparator')) }) : t('rootDepth.window', { days: 14 })}
            />
          </div>
          <Typography.Paragraph type="secondary">{t('rootDepth.hint')}</Typography.Paragraph>
          {!usable ? (
            <Explicit testId="poi-rootdepth-empty" text={t('rootDepth.noUsableDays')} />
          ) : (
            <>
              {data.rootDepth === 0 && <Alert type="info" showIcon className="fw-poi-analysis__note" title={t('rootDepth.notFound')} />}
              <Table<RootLayer> size="small" rowKey="depth" pagination={false} columns={columns} dataSource={data.layers} scroll={{ x: true }} />
            </>
          )}
          <div className="fw-poi-analysis__subhead">
            <Typography.Text strong>{t('rootDepth.historyTitle', { weeks: ROOT_WEEKS })}</Typography.Text>
          </div>
          {option ? (
            <LazyChart option={option} height={220} label={t('rootDepth.historyTitle', { weeks: ROOT_WEEKS })} />
          ) : history.pending ? null : (
            <Explicit testId="poi-rootdepth-history-empty" text={t('rootDepth.historyEmpty', { weeks: ROOT_WEEKS })} />
          )}
        </div>
      )}
    </TabBody>
  );
}

/** The root zone's water now, the crop's daily use, and when and how much to irrigate. */
export function EtRootTab({ deviceId, onSettings }: { deviceId: number; onSettings: () => void }) {
  const { t } = useTranslation('poi');
  const dark = useThemeMode().mode === 'dark';
  const query = useEtRoot(deviceId);
  const data = query.data;
  const zone = data?.zone ?? null;
  const et = data?.et ?? null;
  const projection = data?.projection ?? null;
  const option = useMemo(
    () =>
      zone
        ? rootZoneOption({
            relative: zone.relative,
            refill: zone.refillRelative,
            labels: {
              now: t('etRoot.zoneShort', { depth: formatValue(zone.depth, 0) }),
              refill: t('etRoot.refillLine', { value: zone.refillRelative }),
              fieldCapacity: t('etRoot.fcLine'),
              dry: t('etRoot.bands.dry'),
              available: t('etRoot.bands.available'),
              wet: t('etRoot.bands.wet'),
            },
            dark,
          })
        : null,
    [zone, t, dark],
  );
  return (
    <TabBody loading={query.isPending} error={query.error} toolbar={null}>
      {data && (
        <div data-testid="poi-etroot">
          {!data.configured ? (
            <Alert
              data-testid="poi-etroot-unset"
              type="info"
              showIcon
              title={t('etRoot.notConfigured')}
              action={
                <Button size="small" onClick={onSettings}>
                  {t('etRoot.openSettings')}
                </Button>
              }
            />
          ) : (
            <>
              <div className="fw-poi-figures">
                <KeyFigure
                  testId="poi-etroot-next"
                  label={t('etRoot.next')}
                  value={projection ? (projection.daysUntil <= 0 ? t('etRoot.now') : t('etRoot.inDays', { count: projection.daysUntil })) : MISSING}
                  accent={projection ? (projection.daysUntil <= 2 ? '#fa8c16' : '#52c41a') : undefined}
                  detail={projection ? projection.date : t('etRoot.noProjection')}
                />
                <KeyFigure
                  label={t('etRoot.amount')}
                  value={projection ? formatValue(projection.irrigationMm, 1) : MISSING}
                  unit={projection ? 'mm' : undefined}
                  detail={projection?.volumeM3 != null ? t('etRoot.volume', { volume: formatValue(projection.volumeM3, 1) }) : undefined}
                />
                <KeyFigure
                  label={t('etRoot.zone')}
                  value={zone ? formatValue(zone.relative, 0) : MISSING}
                  unit={zone ? '%' : undefined}
                  detail={
                    zone
                      ? `${isDrought(zone.drought) ? t(`etRoot.drought.${zone.drought}`) : ''} · ${t('etRoot.deficit', { mm: formatValue(zone.deficitMm, 1) })}`
                      : t('etRoot.noZone')
                  }
                />
                <KeyFigure
                  label={t('etRoot.use')}
                  value={et ? formatValue(et.etc ?? et.et0, 2) : MISSING}
                  unit={et ? t('etRoot.perDay') : undefined}
                  detail={
                    et
                      ? et.etc !== null && et.kc !== null
                        ? t('etRoot.etcDetail', { et0: formatValue(et.et0, 2), kc: formatValue(et.kc, 2), source: t(`etRoot.sources.${et.source}`) })
                        : t('etRoot.et0Only', { source: t(`etRoot.sources.${et.source}`) })
                      : t('etRoot.noEt')
                  }
                />
              </div>
              {zone ? (
                <>
                  <Typography.Paragraph type="secondary">
                    {t(zone.rootDepthFound ? 'etRoot.zoneHint' : 'etRoot.zoneFallback', {
                      depth: formatValue(zone.depth, 0),
                      fc: formatValue(zone.fieldCapacity, 1),
                      moisture: formatValue(zone.moisture, 1),
                      raw: formatValue(zone.rawMm, 1),
                    })}
                  </Typography.Paragraph>
                  {option && <LazyChart option={option} height={120} label={t('etRoot.chartLabel')} />}
                </>
              ) : (
                <Explicit testId="poi-etroot-no-zone" text={t('etRoot.noZone')} />
              )}
              {!projection && zone && (
                <Alert
                  type="info"
                  showIcon
                  className="fw-poi-analysis__note"
                  data-testid="poi-etroot-no-projection"
                  title={!et ? t('etRoot.noEt') : et.etc === null ? t('etRoot.noCrop') : t('etRoot.beyond')}
                />
              )}
            </>
          )}
        </div>
      )}
    </TabBody>
  );
}
