import { Card, Empty, Table, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatReportTime, formatValue, MISSING } from '@/lib/format';
import { depthParams, latestValue, surfaceParams, type ReadingIndex } from '@/lib/telemetry/readings';
import type { ParamMeta } from '@/lib/telemetry/types';
import { HEADER_PARAMS, STATE_PARAMS } from '../lib/params';

/** A reading as a person reads it: a state name or a number with its unit. */
export function useReadingText() {
  const { t } = useTranslation('poi');
  return (param: ParamMeta, value: number | null): { value: string; unit: string } => {
    if (value === null) return { value: MISSING, unit: '' };
    if (STATE_PARAMS.has(param.id)) {
      return { value: value >= 1 ? t('states.open') : t('states.closed'), unit: '' };
    }
    return { value: formatValue(value, param.precision), unit: param.unit };
  };
}

export function ReadingTile({ label, value, unit }: { label: string; value: string; unit?: string }) {
  return (
    <div className="fw-poi-tile" data-testid="poi-reading">
      <div className="fw-poi-tile__label">{label}</div>
      <div className="fw-poi-tile__value">
        {value}
        {unit && value !== MISSING ? <span className="fw-poi-tile__unit">{unit}</span> : null}
      </div>
    </div>
  );
}

interface RealtimeCardProps {
  params: readonly ParamMeta[];
  nodes: readonly number[];
  readings: ReadingIndex;
  lastReportTime: number | null;
  /** The readings are on their way: their tiles are drawn with dashes, in their places, meanwhile. */
  loading?: boolean;
}

/** The latest value of every parameter: tiles for surface readings, a depth table for per-depth ones. */
export function RealtimeCard({ params, nodes, readings, lastReportTime, loading = false }: RealtimeCardProps) {
  const { t } = useTranslation('poi');
  const readingText = useReadingText();
  const surface = surfaceParams(params).filter((param) => !HEADER_PARAMS.has(param.id));
  const perDepth = depthParams(params);
  const nothing = readings.size === 0 && !loading;

  const rows = nodes.map((depth) => ({ key: depth, depth }));
  const columns = [
    {
      key: 'depth',
      title: t('realtime.depth'),
      dataIndex: 'depth',
      width: 110,
      render: (depth: number) => t('depth', { depth }),
    },
    ...perDepth.map((param) => ({
      key: param.id,
      title: param.unit ? `${param.name} (${param.unit})` : param.name,
      align: 'right' as const,
      render: (_: unknown, row: { depth: number }) => formatValue(readings.get(param.id)?.get(row.depth)?.value, param.precision),
    })),
  ];

  return (
    <Card
      variant="borderless"
      title={t('realtime.title')}
      extra={
        lastReportTime ? (
          <Tooltip title={formatDateTime(lastReportTime)}>
            <Typography.Text type="secondary">{t('realtime.updatedAt', { time: formatReportTime(lastReportTime) })}</Typography.Text>
          </Tooltip>
        ) : null
      }
      className="fw-poi-section"
    >
      {nothing ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('realtime.none')} />
      ) : (
        <>
          {surface.length > 0 && (
            <div className="fw-poi-tiles">
              {surface.map((param) => {
                const text = readingText(param, latestValue(readings, param.id));
                return <ReadingTile key={param.id} label={param.name} value={text.value} unit={text.unit} />;
              })}
            </div>
          )}
          {perDepth.length > 0 && nodes.length > 0 && (
            <Table
              className={surface.length > 0 ? 'fw-poi-depth-table fw-poi-depth-table--spaced' : 'fw-poi-depth-table'}
              size="small"
              pagination={false}
              dataSource={rows}
              columns={columns}
            />
          )}
        </>
      )}
    </Card>
  );
}
