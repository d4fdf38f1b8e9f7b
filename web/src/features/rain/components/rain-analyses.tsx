import { Card, Col, Empty, Row, Skeleton, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyChart } from '@/components/charts/lazy-chart';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { KeyFigure } from '@/components/summary-card';
import { formatDateTime, formatValue, formatWithUnit } from '@/lib/format';
import { WARNING_HEX, warningLevel } from '@/lib/rain-grades';
import { useThemeMode } from '@/lib/theme';
import { useEarlyWarning } from '../api/get-early-warning';
import { useIdRange } from '../api/get-id-range';
import { idPoints } from '../lib/id-points';
import type { IdRange, WarningEpisode } from '../types';
import { InstallationPanel, LatestIdPanel } from './rain-more';
import { WarningBadge, WarningCriteria } from './rain-summary';

const WARNING_DAYS = 7;

function WarningsPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const query = useEarlyWarning(deviceId, WARNING_DAYS);
  const data = query.data;
  if (query.error) return <ServerErrorAlert error={query.error} />;
  if (!data) return <Skeleton active />;
  const current = warningLevel(data.current);
  const columns: ColumnsType<WarningEpisode> = [
    { title: t('rainWarn.level'), dataIndex: 'level', render: (_: number, row) => <WarningBadge warning={row} /> },
    { title: t('rainWarn.start'), dataIndex: 'start', render: (time: number) => formatDateTime(time) },
    {
      title: t('rainWarn.end'),
      dataIndex: 'end',
      render: (time: number, row) => (row.ongoing ? <Tag color="red">{t('rainWarn.ongoing')}</Tag> : formatDateTime(time)),
    },
    { title: t('rainWarn.peak3h'), dataIndex: 'peak3h', align: 'right', render: (v: number | null) => formatWithUnit(v, 'mm') },
    { title: t('rainWarn.peak6h'), dataIndex: 'peak6h', align: 'right', render: (v: number | null) => formatWithUnit(v, 'mm') },
    { title: t('rainWarn.peak12h'), dataIndex: 'peak12h', align: 'right', render: (v: number | null) => formatWithUnit(v, 'mm') },
  ];
  const mm = (value: number | null) => (value === null ? undefined : 'mm');
  return (
    <div data-testid="poi-rain-warnings">
      <div className="fw-poi-figures">
        <KeyFigure
          testId="poi-rain-warning-current"
          label={t('rainWarn.current')}
          value={<WarningBadge warning={data.current} />}
          accent={current ? WARNING_HEX[current] : undefined}
        />
        <KeyFigure
          label={t('rainWarn.highest', { days: WARNING_DAYS })}
          value={<WarningBadge warning={data.highest} />}
        />
        <KeyFigure label={t('rainWarn.rain3h')} value={formatValue(data.rain3h)} unit={mm(data.rain3h)} />
        <KeyFigure label={t('rainWarn.rain6h')} value={formatValue(data.rain6h)} unit={mm(data.rain6h)} />
        <KeyFigure label={t('rain.last12Hours')} value={formatValue(data.rain12h)} unit={mm(data.rain12h)} />
      </div>
      <Typography.Text strong>{t('rainWarn.episodes')}</Typography.Text>
      <Table<WarningEpisode>
        size="small"
        rowKey="start"
        columns={columns}
        dataSource={data.episodes}
        pagination={{ pageSize: 5, hideOnSinglePage: true }}
        scroll={{ x: true }}
        locale={{
          emptyText: (
            <Empty data-testid="poi-rain-warnings-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('rainWarn.empty', { days: WARNING_DAYS })} />
          ),
        }}
      />
      <div className="fw-poi-analysis__criteria">
        <WarningCriteria criteria={data.criteria} />
      </div>
    </div>
  );
}

function idOption(data: IdRange, labels: { curve: string; below: string; above: string; duration: string; intensity: string }, dark: boolean): EChartsCoreOption {
  const axisName = { color: dark ? 'rgba(255,255,255,0.65)' : 'rgba(0,0,0,0.65)' };
  return {
    backgroundColor: 'transparent',
    // Drawn at once, so a glance (or a screenshot) never catches the points still growing.
    animation: false,
    tooltip: {
      trigger: 'item',
      formatter: (p: { seriesName: string; value: [number, number] }) =>
        `${p.seriesName}<br/>${labels.duration}: ${formatValue(p.value[0])}<br/>${labels.intensity}: ${formatValue(p.value[1])}`,
    },
    legend: { bottom: 0 },
    grid: { left: 64, right: 24, top: 16, bottom: 76 },
    xAxis: { type: 'log', name: labels.duration, nameLocation: 'middle', nameGap: 28, nameTextStyle: axisName, min: 0.1, max: 240 },
    yAxis: { type: 'log', name: labels.intensity, nameLocation: 'middle', nameGap: 44, nameTextStyle: axisName },
    series: [
      { name: labels.curve, type: 'line', showSymbol: false, data: data.curve.map((p) => [p.hours, p.intensity]), lineStyle: { color: '#f5222d', width: 2 }, itemStyle: { color: '#f5222d' } },
      { name: labels.below, type: 'scatter', symbolSize: 9, data: idPoints(data.events, false), itemStyle: { color: '#1677ff' } },
      { name: labels.above, type: 'scatter', symbolSize: 11, data: idPoints(data.events, true), itemStyle: { color: '#fa8c16' } },
    ],
  };
}

function IdPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const query = useIdRange(deviceId, {});
  const data = query.data;
  const dark = useThemeMode().mode === 'dark';
  const option = useMemo(
    () =>
      data
        ? idOption(
            data,
            {
              curve: t('idChart.threshold', { alpha: formatValue(data.threshold.alpha), beta: formatValue(data.threshold.beta) }),
              below: t('idChart.below'),
              above: t('idChart.above'),
              duration: t('idChart.duration'),
              intensity: t('idChart.intensity'),
            },
            dark,
          )
        : null,
    [data, t, dark],
  );
  if (query.error) return <ServerErrorAlert error={query.error} />;
  if (!data || !option) return <Skeleton active />;
  const exceeded = data.events.filter((e) => e.exceeded).length;
  return (
    <div data-testid="poi-rain-id">
      <Typography.Paragraph type="secondary" className="fw-poi-analysis__hint">
        {t('idChart.hint')}{' '}
        {data.events.length > 0 ? t('idChart.events', { count: data.events.length, exceeded }) : ''}
      </Typography.Paragraph>
      {data.events.length === 0 && (
        <Empty data-testid="poi-rain-id-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('idChart.empty')} className="fw-poi-analysis__inline-empty" />
      )}
      <LazyChart option={option} height={340} label={t('idChart.label')} />
    </div>
  );
}

/** The rain gauge's rainstorm warnings (levels 01–04) and its rain events on the I-D threshold chart. */
export function RainAnalysesCard({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  return (
    <Row gutter={[16, 16]} className="fw-poi-section" data-testid="poi-rain-analyses">
      <Col xs={24} xl={12}>
        <Card variant="borderless" title={t('rainWarn.title')} style={{ height: '100%' }}>
          <WarningsPanel deviceId={deviceId} />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card variant="borderless" title={t('idChart.title')} style={{ height: '100%' }}>
          <IdPanel deviceId={deviceId} />
        </Card>
      </Col>
      <Col xs={24}>
        <Card variant="borderless" title={t('pages.rainMoreTitle')} data-testid="poi-rain-more">
          <Tabs
            destroyOnHidden
            items={[
              { key: 'latest', label: t('pages.tabs.latest'), children: <LatestIdPanel deviceId={deviceId} /> },
              { key: 'installing', label: t('pages.tabs.installing'), children: <InstallationPanel deviceId={deviceId} /> },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
