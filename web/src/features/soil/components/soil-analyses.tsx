import { Alert, App, Button, Card, Skeleton, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyChart } from '@/components/charts/lazy-chart';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { KeyFigure } from '@/components/summary-card';
import { formatDateTime, formatValue, formatWithUnit, MISSING } from '@/lib/format';
import type { Range } from '@/lib/time-range';
import { useLang } from '@/lib/use-lang';
import { useEtAnalysis } from '../api/get-et-analysis';
import { useFreezeThaw } from '../api/get-freeze-thaw';
import { useIrrigationRecognition } from '../api/get-irrigation-recognition';
import { useSoilSettings } from '../api/get-soil-settings';
import { useWaterlogging } from '../api/get-waterlogging';
import { useSaveSoilSettings } from '../api/save-soil-settings';
import { etCsv, MAX_ET_EXPORT_DAYS } from '../lib/et-csv';
import type { EtAnalysis, Pulse, WaterloggingPeriod } from '../types';
import { DaysPicker, Explicit, Period, TabBody } from './analysis-parts';
import { SoilSettingsForm } from './soil-settings-form';
import { EtRootTab, InfiltrationTab, RootDepthTab } from './soil-water-tabs';
import { farmTime } from '@/lib/farm-time';

function SettingsTab({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const { message } = App.useApp();
  const lang = useLang();
  const settings = useSoilSettings(deviceId, lang);
  const save = useSaveSoilSettings(deviceId);
  if (settings.error) return <ServerErrorAlert error={settings.error} />;
  if (!settings.data) return <Skeleton active />;
  return (
    <SoilSettingsForm
      settings={settings.data}
      saving={save.isPending}
      error={save.error}
      onSave={async (input) => {
        await save.mutateAsync(input);
        void message.success(t('soilSettings.saved'));
      }}
    />
  );
}

const SOURCE_COLORS: Record<Pulse['source'], string> = { irrigation: 'blue', rain: 'cyan', unknown: 'default' };

function IrrigationTab({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const [range, setRange] = useState<Range>({});
  const query = useIrrigationRecognition(deviceId, range);
  const data = query.data;
  const columns: ColumnsType<Pulse> = [
    { title: t('irri.start'), dataIndex: 'start', render: (time: number) => formatDateTime(time) },
    {
      title: t('irri.source'),
      dataIndex: 'source',
      render: (source: Pulse['source']) => <Tag color={SOURCE_COLORS[source]}>{t(`irri.sources.${source}`)}</Tag>,
    },
    { title: t('irri.amount'), dataIndex: 'amountMm', align: 'right', render: (v: number | null) => formatWithUnit(v, 'mm') },
    { title: t('irri.rain'), dataIndex: 'rainMm', align: 'right', render: (v: number | null) => formatWithUnit(v, 'mm') },
    { title: t('irri.volume'), dataIndex: 'volumeM3', align: 'right', render: (v: number | null) => formatWithUnit(v, 'm³') },
    { title: t('irri.front'), dataIndex: 'frontDepth', align: 'right', render: (v: number | null) => formatWithUnit(v, 'cm') },
    { title: t('irri.speed'), dataIndex: 'frontSpeed', align: 'right', render: (v: number | null) => formatWithUnit(v, 'cm/h') },
  ];
  return (
    <TabBody
      loading={query.isPending}
      error={query.error}
      toolbar={
        <>
          <DaysPicker range={range} onRange={setRange} maxDays={366} testId="poi-irri-range" />
          {data && <Period begin={data.begin} end={data.end} />}
        </>
      }
    >
      {data && (
        <div data-testid="poi-irri">
          <div className="fw-poi-figures">
            <KeyFigure label={t('irri.count')} value={String(data.irrigationCount)} />
            <KeyFigure label={t('irri.irrigationTotal')} value={formatValue(data.irrigationMm)} unit={data.irrigationMm === null ? undefined : 'mm'} />
            <KeyFigure label={t('irri.rainTotal')} value={formatValue(data.rainMm)} unit={data.rainMm === null ? undefined : 'mm'} />
            <KeyFigure
              label={t('irri.rainStation')}
              value={data.rainStation ? data.rainStation.name : MISSING}
              detail={
                data.rainStation
                  ? data.rainStation.own
                    ? t('analyses.ownSensors')
                    : t('analyses.stationAway', { km: formatValue(data.rainStation.distanceKm) })
                  : t('irri.noRainStation')
              }
            />
          </div>
          <Typography.Paragraph type="secondary">{t('irri.hint', { mm: data.minAmountMm })}</Typography.Paragraph>
          <Table<Pulse>
            size="small"
            rowKey="start"
            columns={columns}
            dataSource={data.pulses}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            scroll={{ x: true }}
            locale={{ emptyText: <Explicit testId="poi-irri-empty" text={t('irri.empty', { mm: data.minAmountMm })} /> }}
          />
        </div>
      )}
    </TabBody>
  );
}

interface PeriodRow extends WaterloggingPeriod {
  depth: number;
  threshold: number | null;
}

function WaterloggingTab({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const [range, setRange] = useState<Range>({});
  const query = useWaterlogging(deviceId, range);
  const data = query.data;
  const rows: PeriodRow[] = (data?.layers ?? []).flatMap((layer) => layer.periods.map((p) => ({ ...p, depth: layer.depth, threshold: layer.threshold })));
  const columns: ColumnsType<PeriodRow> = [
    { title: t('depth', { depth: '' }).trim() || 'cm', dataIndex: 'depth', render: (d: number) => `${d} cm` },
    { title: t('waterlogging.start'), dataIndex: 'start', render: (time: number) => formatDateTime(time) },
    {
      title: t('waterlogging.end'),
      dataIndex: 'end',
      render: (time: number, row) => (row.ongoing ? <Tag color="red">{t('waterlogging.ongoing')}</Tag> : formatDateTime(time)),
    },
    { title: t('waterlogging.hours'), dataIndex: 'hours', align: 'right', render: (v: number | null) => formatWithUnit(v, 'h') },
    { title: t('waterlogging.peak'), dataIndex: 'peak', align: 'right', render: (v: number | null) => formatWithUnit(v, '%') },
    { title: t('waterlogging.threshold'), dataIndex: 'threshold', align: 'right', render: (v: number | null) => formatWithUnit(v, '%') },
  ];
  return (
    <TabBody
      loading={query.isPending}
      error={query.error}
      toolbar={
        <>
          <DaysPicker range={range} onRange={setRange} maxDays={366} testId="poi-waterlogging-range" />
          {data && <Period begin={data.begin} end={data.end} />}
        </>
      }
    >
      {data &&
        (data.thresholdSource === '' ? (
          <Alert data-testid="poi-waterlogging-unset" type="info" showIcon title={t('waterlogging.noThreshold')} />
        ) : (
          <div data-testid="poi-waterlogging">
            <div className="fw-poi-figures">
              <KeyFigure label={t('waterlogging.total')} value={formatValue(data.hours)} unit={data.hours === null ? undefined : 'h'} />
              {data.layers.map((layer) => (
                <KeyFigure
                  key={layer.depth}
                  label={`${layer.depth} cm`}
                  value={formatValue(layer.hours)}
                  unit={layer.hours === null ? undefined : 'h'}
                  detail={t('waterlogging.thresholdIs', { value: formatValue(layer.threshold) })}
                />
              ))}
            </div>
            <Typography.Paragraph type="secondary">{t('waterlogging.hint', { hours: data.minHours })}</Typography.Paragraph>
            <Table<PeriodRow>
              size="small"
              rowKey={(row) => `${row.depth}-${row.start}`}
              columns={columns}
              dataSource={rows}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              locale={{ emptyText: <Explicit testId="poi-waterlogging-empty" text={t('waterlogging.empty', { hours: data.minHours })} /> }}
            />
          </div>
        ))}
    </TabBody>
  );
}

function FreezeThawTab({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const [range, setRange] = useState<Range>({});
  const query = useFreezeThaw(deviceId, range);
  const data = query.data;
  const layers = data?.layers ?? [];
  const frozenDepths = Array.isArray(data?.frozenNow) ? data.frozenNow : [];
  const frozenNow = Array.isArray(data?.frozenNow) ? data.frozenNow.length > 0 : Boolean(data?.frozenNow);
  const eventful = layers.some((layer) => layer.events.length > 0 || (layer.frozenHours ?? 0) > 0);
  return (
    <TabBody
      loading={query.isPending}
      error={query.error}
      toolbar={
        <>
          <DaysPicker range={range} onRange={setRange} maxDays={366} testId="poi-freeze-range" />
          {data && <Period begin={data.begin} end={data.end} />}
        </>
      }
    >
      {data && (
        <div data-testid="poi-freeze">
          <div className="fw-poi-figures">
            <KeyFigure
              label={t('freeze.now')}
              value={frozenNow ? t('freeze.frozen') : t('freeze.notFrozen')}
              detail={frozenDepths.length > 0 ? frozenDepths.map((d) => `${d} cm`).join(t('listSeparator')) : undefined}
              accent={frozenNow ? '#1677ff' : undefined}
            />
            <KeyFigure label={t('freeze.days')} value={String(data.dates.length)} />
          </div>
          {!eventful ? (
            <Explicit testId="poi-freeze-empty" text={t('freeze.empty')} />
          ) : (
            <Table
              size="small"
              rowKey="depth"
              pagination={false}
              dataSource={layers}
              columns={[
                { title: t('freeze.depth'), dataIndex: 'depth', render: (d: number) => `${d} cm` },
                { title: t('freeze.cycles'), dataIndex: 'cycles', align: 'right' },
                { title: t('freeze.frozenHours'), dataIndex: 'frozenHours', align: 'right', render: (v: number | null) => formatWithUnit(v, 'h') },
                {
                  title: t('freeze.events'),
                  dataIndex: 'events',
                  render: (events: { kind: string; time: number }[]) =>
                    events.length === 0
                      ? MISSING
                      : events.slice(-6).map((e) => (
                          <Tag key={`${e.kind}-${e.time}`} color={e.kind === 'freeze' ? 'blue' : 'orange'}>
                            {t(`freeze.kinds.${e.kind === 'freeze' ? 'freeze' : 'thaw'}`)} {farmTime(e.time).format('MM-DD HH:mm')}
                          </Tag>
                        )),
                },
              ]}
            />
          )}
        </div>
      )}
    </TabBody>
  );
}

function etOption(data: EtAnalysis, labels: { et0: string; etc: string; kc: string; forecast: string }): EChartsCoreOption {
  const observed = data.days.map((d) => d.date);
  const forecast = (data.forecast?.days ?? []).filter((d) => !observed.includes(d.date));
  const dates = [...observed, ...forecast.map((d) => d.date)];
  const pad = (n: number) => Array<null>(n).fill(null);
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 48, right: 48, top: 36, bottom: 48 },
    xAxis: { type: 'category', data: dates },
    yAxis: [
      { type: 'value', name: 'mm' },
      { type: 'value', name: 'Kc', splitLine: { show: false } },
    ],
    dataZoom: dates.length > 60 ? [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }] : [],
    series: [
      { name: labels.et0, type: 'bar', stack: 'et0', barMaxWidth: 28, data: [...data.days.map((d) => d.et0), ...pad(forecast.length)], itemStyle: { color: '#69b1ff' } },
      {
        name: labels.forecast,
        type: 'bar',
        stack: 'et0',
        barMaxWidth: 28,
        data: [...pad(observed.length), ...forecast.map((d) => d.et0)],
        itemStyle: { color: '#bfbfbf' },
      },
      { name: labels.etc, type: 'line', symbolSize: 6, data: [...data.days.map((d) => d.etc), ...forecast.map((d) => d.etc)], itemStyle: { color: '#52c41a' } },
      { name: labels.kc, type: 'line', yAxisIndex: 1, showSymbol: false, data: [...data.days.map((d) => d.kc), ...forecast.map((d) => d.kc)] },
    ],
  };
}

function EtTab({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const [range, setRange] = useState<Range>({});
  const query = useEtAnalysis(deviceId, range);
  const data = query.data;
  const option = useMemo(
    () => (data ? etOption(data, { et0: 'ET0', etc: 'ETc', kc: 'Kc', forecast: t('et.forecastEt0') }) : null),
    [data, t],
  );
  const hasObserved = Boolean(data?.days.some((d) => d.et0 !== null));
  const exportCsv = () => {
    if (!data) return;
    const blob = new Blob([`\ufeff${etCsv(data.days)}`], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `et-${farmTime(data.begin).format('YYYYMMDD')}-${farmTime(data.end - 1).format('YYYYMMDD')}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <TabBody
      loading={query.isPending}
      error={query.error}
      toolbar={
        <>
          <DaysPicker range={range} onRange={setRange} maxDays={MAX_ET_EXPORT_DAYS} testId="poi-et-range" />
          {data && <Period begin={data.begin} end={data.end} />}
          <span className="fw-poi-toolbar__spacer" />
          <Button onClick={exportCsv} disabled={!data || data.days.length === 0} data-testid="poi-et-export">
            {t('et.export')}
          </Button>
        </>
      }
    >
      {data && (
        <div data-testid="poi-et">
          <div className="fw-poi-figures">
            <KeyFigure label={t('et.et0Total')} value={formatValue(data.et0Total)} unit={data.et0Total === null ? undefined : 'mm'} />
            <KeyFigure
              label={t('et.etcTotal')}
              value={formatValue(data.etcTotal)}
              unit={data.etcTotal === null ? undefined : 'mm'}
              detail={data.crop ? data.crop.name : t('et.noCrop')}
            />
            <KeyFigure
              label={t('et.forecastTotal')}
              value={data.forecast ? formatValue(data.forecast.et0Total) : MISSING}
              unit={data.forecast?.et0Total != null ? 'mm' : undefined}
              detail={data.forecastUnavailable ? t('et.forecastUnavailable') : undefined}
            />
            <KeyFigure
              label={t('et.station')}
              value={data.station ? data.station.name : MISSING}
              detail={
                data.station
                  ? data.station.own
                    ? t('analyses.ownSensors')
                    : t('analyses.stationAway', { km: formatValue(data.station.distanceKm) })
                  : undefined
              }
            />
          </div>
          {data.forecastUnavailable && (
            <Alert data-testid="poi-et-forecast-unavailable" type="info" showIcon className="fw-poi-analysis__note" title={t('et.forecastUnavailableLong')} />
          )}
          {data.observedUnavailable && (
            <Alert type="warning" showIcon className="fw-poi-analysis__note" title={t(`et.observedUnavailable.${data.observedUnavailable}`)} />
          )}
          {hasObserved && option ? (
            <LazyChart option={option} height={280} label={t('et.chartLabel')} />
          ) : (
            <Explicit testId="poi-et-empty" text={t('et.empty')} />
          )}
        </div>
      )}
    </TabBody>
  );
}

interface SoilAnalysesCardProps {
  deviceId: number;
  /** Node depths in cm. */
  nodes: readonly number[];
  /** Minutes between the device's reports; an event's profile starts one report before the water arrived. */
  reportInterval?: number;
}

/** The soil analyses of a zhi-shang device, one tab each. */
export function SoilAnalysesCard({ deviceId, nodes, reportInterval }: SoilAnalysesCardProps) {
  const { t } = useTranslation('poi');
  const [tab, setTab] = useState('irrigation');
  return (
    <Card variant="borderless" title={t('analyses.title')} className="fw-poi-section" data-testid="poi-soil-analyses">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          { key: 'irrigation', label: t('analyses.tabs.irrigation'), children: <IrrigationTab deviceId={deviceId} /> },
          { key: 'infiltration', label: t('analyses.tabs.infiltration'), children: <InfiltrationTab deviceId={deviceId} reportInterval={reportInterval} /> },
          { key: 'et', label: t('analyses.tabs.et'), children: <EtTab deviceId={deviceId} /> },
          { key: 'etRoot', label: t('analyses.tabs.etRoot'), children: <EtRootTab deviceId={deviceId} onSettings={() => setTab('settings')} /> },
          { key: 'rootDepth', label: t('analyses.tabs.rootDepth'), children: <RootDepthTab deviceId={deviceId} nodes={nodes} /> },
          { key: 'waterlogging', label: t('analyses.tabs.waterlogging'), children: <WaterloggingTab deviceId={deviceId} /> },
          { key: 'freeze', label: t('analyses.tabs.freeze'), children: <FreezeThawTab deviceId={deviceId} /> },
          { key: 'settings', label: t('analyses.tabs.settings'), children: <SettingsTab deviceId={deviceId} /> },
        ]}
      />
    </Card>
  );
}
