import { Button, CalendarPicker, Selector } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyChart } from '@/components/charts/lazy-chart';
import { MobileServerError } from '@/components/mobile-server-error';
import { useMetadata } from '@/features/poi/api/get-metadata';
import { chartSeriesFor, hasPoints, paramChartOption } from '@/features/poi/lib/history-series';
import { useSeriesLabels } from '@/features/poi/lib/series-labels';
import type { DeviceInfo } from '@/features/poi/types';
import { farmTime, pickerToday } from '@/lib/farm-time';
import { useHistory } from '@/lib/telemetry/get-history';
import type { HistoryDim, ParamCatalogue } from '@/lib/telemetry/types';
import { useThemeMode } from '@/lib/theme';
import { presetRange, RANGE_PRESETS, type RangePreset } from '@/lib/time-range';
import { useLang } from '@/lib/use-lang';
import { defaultNodes, rangeOf, visibleWindow, zoomPercent, type RangeChoice } from '../lib/history';
import { Section } from './parts';
import { DeviceError, Loading } from './states';
import { useMobileDevice } from './use-device';

const POINTS = 600;
const HEADER = new Set(['battery', 'signal']);

function formatSpan(begin: number, end: number, daily: boolean): string {
  const f = daily ? 'MM-DD' : 'MM-DD HH:mm';
  return `${farmTime(begin).format(f)} – ${farmTime(end).format(f)}`;
}

function History({ device, catalogue }: { device: DeviceInfo; catalogue: ParamCatalogue }) {
  const { t } = useTranslation(['mobilePoi', 'poi']);
  const { mode } = useThemeMode();
  const labels = useSeriesLabels();
  const params = catalogue.params;
  const [paramId, setParamId] = useState(() => (params.find((p) => !HEADER.has(p.id)) ?? params[0])?.id ?? '');
  const param = params.find((p) => p.id === paramId);
  const [nodes, setNodes] = useState(() => defaultNodes(catalogue.nodes));
  const [choice, setChoice] = useState<RangeChoice>({ preset: '24h' });
  // The range is fixed when chosen, so the chart does not move while someone zooms it.
  const [range, setRange] = useState(() => presetRange('24h'));
  const [dim, setDim] = useState<HistoryDim>('raw');
  const [picking, setPicking] = useState(false);
  const [zoom, setZoom] = useState<{ start: number; end: number } | null>(null);
  // Bumped to redraw the chart at full width.
  const [resets, setResets] = useState(0);
  const perNode = Boolean(param?.perNode) && catalogue.nodes.length > 0;
  const history = useHistory(
    device.id,
    { ...range, params: param ? [param.id] : [], nodes: perNode ? nodes : undefined, dim, points: POINTS },
    Boolean(param) && (!perNode || nodes.length > 0),
  );
  const data = history.data;
  const series = useMemo(() => (param && data ? chartSeriesFor(param, data, labels) : []), [param, data, labels]);
  const option = useMemo(
    () =>
      param
        ? paramChartOption(param, series, { range, dim, dark: mode === 'dark', stateNames: { closed: t('poi:states.closed'), open: t('poi:states.open') } })
        : null,
    [param, series, range, dim, mode, t],
  );
  const change = (update: () => void) => {
    update();
    setZoom(null);
  };
  const choose = (next: RangeChoice) =>
    change(() => {
      setChoice(next);
      setRange(rangeOf(next, Date.now()));
    });
  const resetZoom = () => {
    setZoom(null);
    setResets((n) => n + 1);
  };
  const zoomEvents = useMemo(() => ({ datazoom: (event: unknown) => setZoom(zoomPercent(event)) }), []);
  const window = zoom ? visibleWindow(range, zoom) : range;
  const zoomed = zoom !== null && (zoom.start > 0 || zoom.end < 100);
  const presetKey = 'preset' in choice ? choice.preset : 'custom';
  const today = pickerToday().toDate();

  return (
    <div className="fw-mpoi" data-testid="mpoi-history">
      <Section>
        <Selector
          className="fw-mpoi-selector"
          columns={4}
          value={[presetKey]}
          onChange={(v) => {
            const key = v[0];
            if (key === 'custom') setPicking(true);
            else if (key) choose({ preset: key as RangePreset });
          }}
          options={[
            ...RANGE_PRESETS.map((p) => ({ label: t(`poi:history.presets.${p}`), value: p })),
            { label: t('history.custom'), value: 'custom' },
          ]}
          data-testid="mpoi-range"
        />
        <div className="fw-mpoi-range" data-testid="mpoi-range-text">
          {formatSpan(range.begin, range.end, false)}
        </div>
        <Selector
          className="fw-mpoi-selector"
          columns={2}
          value={[dim]}
          onChange={(v) => v[0] && change(() => setDim(v[0] as HistoryDim))}
          options={(['raw', 'daily'] as const).map((d) => ({ label: t(`poi:history.dim.${d}`), value: d }))}
          data-testid="mpoi-dim"
        />
      </Section>
      <Section title={t('poi:history.params')}>
        <Selector
          className="fw-mpoi-selector fw-mpoi-selector--wrap"
          value={[paramId]}
          onChange={(v) => v[0] && change(() => setParamId(v[0]))}
          options={params.map((p) => ({ label: p.name, value: p.id }))}
          data-testid="mpoi-params"
        />
        {perNode && (
          <>
            <div className="fw-mpoi-label">{t('poi:history.depths')}</div>
            <Selector
              className="fw-mpoi-selector fw-mpoi-selector--wrap"
              multiple
              value={nodes.map(String)}
              onChange={(v) => change(() => setNodes(v.map(Number).sort((a, b) => a - b)))}
              options={catalogue.nodes.map((n) => ({ label: t('poi:depth', { depth: n }), value: String(n) }))}
              data-testid="mpoi-nodes"
            />
            {nodes.length === 0 && <p className="fw-mpoi-hint">{t('poi:history.pickDepths')}</p>}
          </>
        )}
      </Section>
      <Section
        title={param ? `${param.name}${param.unit ? ` (${param.unit})` : ''}` : undefined}
        extra={
          zoomed ? (
            <Button size="mini" fill="none" color="primary" onClick={resetZoom} data-testid="mpoi-zoom-reset">
              {t('history.resetZoom')}
            </Button>
          ) : undefined
        }
        testId="mpoi-chart-section"
      >
        <div className="fw-mpoi-window" data-testid="mpoi-zoom-window" data-begin={window.begin} data-end={window.end}>
          {zoomed ? t('history.showing', { span: formatSpan(window.begin, window.end, dim === 'daily') }) : t('history.pinch')}
        </div>
        {history.error ? (
          <MobileServerError error={history.error} />
        ) : !data && history.isFetching ? (
          <Loading />
        ) : option && hasPoints(series) ? (
          <LazyChart
            key={resets}
            option={option}
            height={280}
            label={t('poi:history.chartLabel', { name: param?.name ?? '' })}
            onEvents={zoomEvents}
          />
        ) : (
          <p className="fw-mpoi-hint" data-testid="mpoi-chart-empty">
            {t('history.empty')}
          </p>
        )}
      </Section>
      <CalendarPicker
        visible={picking}
        selectionMode="range"
        max={today}
        min={farmTime().subtract(1, 'year').toDate()}
        title={t('history.custom')}
        confirmText={t('history.confirm')}
        onClose={() => setPicking(false)}
        onConfirm={(value) => {
          setPicking(false);
          if (value) choose({ from: value[0], to: value[1] });
        }}
      />
    </div>
  );
}

function WithCatalogue({ device }: { device: DeviceInfo }) {
  const metadata = useMetadata(device.id, useLang());
  if (metadata.error) return <DeviceError error={metadata.error} />;
  if (!metadata.data) return <Loading />;
  return <History device={device} catalogue={metadata.data} />;
}

/** …/history: one parameter's chart over a period, pinch to zoom. */
export function MobileHistoryPage() {
  const { info } = useMobileDevice();
  if (info.isPending) return <Loading />;
  if (info.isError) return <DeviceError error={info.error} />;
  return <WithCatalogue device={info.data} />;
}
