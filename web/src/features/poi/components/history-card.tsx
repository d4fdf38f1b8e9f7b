import { Card, Checkbox, Segmented, Select, Tabs, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartBlock } from '@/components/charts/chart-block';
import { useHistory } from '@/lib/telemetry/get-history';
import type { HistoryContext, HistoryDim, NodeAggregation, ParamCatalogue, ParamMeta } from '@/lib/telemetry/types';
import { useThemeMode } from '@/lib/theme';
import type { TimeRange } from '@/lib/time-range';
import { chartSeriesFor, hasPoints, paramChartOption } from '../lib/history-series';
import { useSeriesLabels } from '../lib/series-labels';
import { STATE_PARAMS } from '../lib/params';
import { choosePreset, RangeToolbar, type RangeChoice } from './range-toolbar';

export interface HistoryView {
  key: string;
  label: string;
  render: (context: HistoryContext) => ReactNode;
}

/** Points per series asked for a chart: more than a chart's width in pixels can show. */
const CHART_POINTS = 800;

function ParamChart({ param, series, range, dim, loading, error }: {
  param: ParamMeta;
  series: ReturnType<typeof chartSeriesFor>;
  range: TimeRange;
  dim: HistoryDim;
  loading: boolean;
  error: unknown;
}) {
  const { t } = useTranslation('poi');
  const { mode } = useThemeMode();
  const state = STATE_PARAMS.has(param.id);
  const option = useMemo(
    () => paramChartOption(param, series, { range, dim, dark: mode === 'dark', stateNames: { closed: t('states.closed'), open: t('states.open') } }),
    [series, param, range, dim, mode, t],
  );
  const title = param.unit ? `${param.name} (${param.unit})` : param.name;
  return (
    <ChartBlock
      title={title}
      option={option}
      empty={!hasPoints(series)}
      loading={loading}
      error={error}
      height={state ? 140 : 240}
      label={t('history.chartLabel', { name: param.name })}
    />
  );
}

interface CurvesProps extends HistoryContext {
  defaultParams: readonly string[];
}

/** Any parameters over the period, one chart each, with depth choice and depth aggregation. */
function Curves({ deviceId, catalogue, range, dim, defaultParams }: CurvesProps) {
  const { t } = useTranslation('poi');
  const labels = useSeriesLabels();
  const known = new Set(catalogue.params.map((param) => param.id));
  const [selected, setSelected] = useState<string[]>(() => defaultParams.filter((id) => known.has(id)));
  const [nodes, setNodes] = useState<number[]>(() => [...catalogue.nodes]);
  const [aggregation, setAggregation] = useState<NodeAggregation>('none');

  const params = catalogue.params.filter((param) => selected.includes(param.id));
  const perDepth = params.some((param) => param.perNode) && catalogue.nodes.length > 0;
  const query = {
    ...range,
    params: params.map((param) => param.id),
    nodes: perDepth && nodes.length < catalogue.nodes.length ? nodes : undefined,
    dim,
    aggregated: perDepth ? aggregation : undefined,
    points: CHART_POINTS,
  };
  const history = useHistory(deviceId, query, !perDepth || nodes.length > 0);
  const loading = history.isFetching;
  const data = history.data;
  const seriesByParam = useMemo(
    () => new Map(catalogue.params.map((param) => [param.id, data ? chartSeriesFor(param, data, labels) : []])),
    [catalogue, data, labels],
  );

  return (
    <div className="fw-poi-curves">
      <div className="fw-poi-curves__controls">
        <Select
          mode="multiple"
          className="fw-poi-curves__params"
          aria-label={t('history.params')}
          placeholder={t('history.paramsPlaceholder')}
          value={selected}
          onChange={setSelected}
          maxTagCount="responsive"
          options={catalogue.params.map((param) => ({ value: param.id, label: param.name }))}
        />
        {perDepth && (
          <>
            <Checkbox.Group
              className="fw-poi-curves__nodes"
              aria-label={t('history.depths')}
              value={nodes}
              onChange={(values) => setNodes([...values].sort((a, b) => a - b))}
              options={catalogue.nodes.map((depth) => ({ value: depth, label: t('depth', { depth }) }))}
            />
            <Segmented<NodeAggregation>
              value={aggregation}
              onChange={setAggregation}
              options={(['none', 'average', 'max', 'min'] as const).map((how) => ({ value: how, label: t(`history.aggregation.${how}`) }))}
            />
          </>
        )}
      </div>
      {params.length === 0 ? (
        <Typography.Paragraph type="secondary" className="fw-poi-hint">
          {t('history.pickParams')}
        </Typography.Paragraph>
      ) : perDepth && nodes.length === 0 ? (
        <Typography.Paragraph type="secondary" className="fw-poi-hint">
          {t('history.pickDepths')}
        </Typography.Paragraph>
      ) : (
        params.map((param) => (
          <ParamChart
            key={param.id}
            param={param}
            series={seriesByParam.get(param.id) ?? []}
            range={range}
            dim={dim}
            loading={loading}
            error={history.error}
          />
        ))
      )}
    </div>
  );
}

interface HistoryCardProps {
  deviceId: number;
  catalogue: ParamCatalogue;
  /** The curves shown first. */
  defaultParams: readonly string[];
  /** Views of this kind of device, shown before the curves. */
  views?: HistoryView[];
}

/** History over a chosen period: presets or calendar days, raw readings or daily statistics. */
export function HistoryCard({ deviceId, catalogue, defaultParams, views = [] }: HistoryCardProps) {
  const { t } = useTranslation('poi');
  const [choice, setChoice] = useState<RangeChoice>(() => choosePreset('7d'));
  const [dim, setDim] = useState<HistoryDim>('raw');
  const context: HistoryContext = { deviceId, catalogue, range: choice.range, dim };
  const curves = <Curves {...context} defaultParams={defaultParams} />;
  return (
    <Card variant="borderless" title={t('history.title')} className="fw-poi-section fw-poi-history">
      <RangeToolbar choice={choice} onChoice={setChoice} dim={dim} onDim={setDim} />
      {views.length === 0 ? (
        curves
      ) : (
        <Tabs
          className="fw-poi-history__tabs"
          items={[
            ...views.map((view) => ({ key: view.key, label: view.label, children: view.render(context) })),
            { key: 'curves', label: t('history.curves'), children: curves },
          ]}
        />
      )}
    </Card>
  );
}
