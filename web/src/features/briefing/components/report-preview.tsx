import { Alert, Empty, Flex, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useReport } from '../api/briefings';
import { BandChart } from './band-chart';
import { bandLabel, type Band, type Grade, type RegionReport } from '../types';

export const GRADE_COLORS: Record<string, string> = {
  none: 'green',
  light: 'gold',
  moderate: 'orange',
  severe: 'red',
  extreme: 'volcano',
  waterlogged: 'blue',
  '': 'default',
};

export function GradeTag({ grade, waterlogged }: { grade: Grade; waterlogged?: boolean }) {
  const { t } = useTranslation('briefing');
  // Above 90 % of field capacity there is no drought: the layer is simply waterlogged.
  if (waterlogged) return <Tag color={GRADE_COLORS.waterlogged}>{t('report.waterlogged')}</Tag>;
  return <Tag color={GRADE_COLORS[grade]}>{t(`report.grades.${grade || 'nodata'}`)}</Tag>;
}

function num(value: number | null | undefined, signed = false): string {
  if (value === null || value === undefined) return '—';
  return signed && value > 0 ? `+${value.toFixed(1)}` : value.toFixed(1);
}

interface Row {
  key: string;
  region: string;
  first: boolean;
  span: number;
  band: Band;
  advice: RegionReport['advice'];
}

/** The report of a preset computed now: regions × bands, advice, rain, forecast, devices left out. */
export function ReportPreview({ configId }: { configId: number }) {
  const { t } = useTranslation('briefing');
  const report = useReport(configId);
  if (report.isLoading) {
    return (
      <Flex justify="center" className="fw-briefing__loading">
        <Spin />
      </Flex>
    );
  }
  if (report.error) return <ServerErrorAlert error={report.error} />;
  const r = report.data;
  if (!r) return <Empty />;
  const last = r.days.length > 0 ? r.days[r.days.length - 1] : r.end;
  const rows: Row[] = r.regions.flatMap((region) =>
    region.bands.map((band, index) => ({
      key: `${region.name}-${band.band}`,
      region: region.name,
      first: index === 0,
      span: region.bands.length,
      band,
      advice: region.advice,
    })),
  );
  const adviceText = (advice: RegionReport['advice']) => {
    const depth = num(advice.depthMm);
    if (advice.action === 'irrigate' && advice.by) return t('report.action.irrigateBy', { depth, by: advice.by.slice(0, 10) });
    return t(`report.action.${advice.action}`, { depth });
  };
  const excluded = r.devices.flatMap((d) => (d.issue ? [{ ...d, issue: d.issue }] : []));
  return (
    <div className="fw-briefing__preview" data-testid="briefing-preview">
      <Typography.Text type="secondary">{t('report.period', { begin: r.begin.slice(0, 10), end: last.slice(0, 10) })}</Typography.Text>
      <Table<Row>
        className="fw-briefing__report-table"
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={rows}
        scroll={{ x: 720 }}
        columns={[
          {
            title: t('report.region'),
            dataIndex: 'region',
            onCell: (row) => ({ rowSpan: row.first ? row.span : 0 }),
          },
          { title: t('report.band'), className: 'fw-briefing__nowrap', render: (_, row) => bandLabel(row.band.band) },
          { title: t('report.theta'), align: 'right', render: (_, row) => num(row.band.theta) },
          { title: t('report.relative'), align: 'right', render: (_, row) => num(row.band.relative) },
          { title: t('report.change'), align: 'right', render: (_, row) => num(row.band.change, true) },
          { title: t('report.grade'), render: (_, row) => <GradeTag grade={row.band.grade} waterlogged={row.band.waterlogged} /> },
          {
            title: t('report.advice'),
            onCell: (row) => ({ rowSpan: row.first ? row.span : 0 }),
            render: (_, row) => adviceText(row.advice),
          },
        ]}
      />
      <BandChart report={r} coefficient={r.coefficient} />
      <Flex vertical gap={4} className="fw-briefing__facts">
        <Typography.Text>{r.rain === null ? t('report.noRain') : t('report.rain', { mm: num(r.rain) })}</Typography.Text>
        <Typography.Text>
          {r.forecast ? t('report.forecast', { rain: num(r.forecast.rain), et0: num(r.forecast.et0) }) : t('report.noForecast')}
        </Typography.Text>
      </Flex>
      {excluded.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          className="fw-briefing__excluded"
          message={t('report.excluded')}
          description={excluded.map((d) => `${d.name || d.sn || `#${d.id}`}: ${t(`report.issues.${d.issue}`)}`).join('; ')}
        />
      ) : null}
    </div>
  );
}
