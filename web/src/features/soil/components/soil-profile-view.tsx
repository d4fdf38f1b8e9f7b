import { Segmented, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartBlock } from '@/components/charts/chart-block';
import { useHistory } from '@/lib/telemetry/get-history';
import type { HistoryContext } from '@/lib/telemetry/types';
import { useThemeMode } from '@/lib/theme';
import { bucketSize, DAY } from '@/lib/time-range';
import { heatmapOption, MOISTURE_COLORS } from '../lib/chart-options';
import { depthTimeGrid } from '../lib/depth-grid';

/** Past two months of raw readings the grid is drawn from daily means. */
const RAW_LIMIT = 62 * DAY;

/**
 * Soil moisture (or another per-depth reading) as a depth × time heatmap: the shallowest depth on
 * top, wetter cells bluer, so a wetting front or a drying layer shows at a glance.
 */
export function SoilProfileView({ deviceId, catalogue, range, dim }: HistoryContext) {
  const { t } = useTranslation('poi');
  const { mode } = useThemeMode();
  const candidates = catalogue.params.filter((param) => param.perNode);
  const [paramId, setParamId] = useState(() => candidates.find((p) => p.id === 'soilMoisture')?.id ?? candidates[0]?.id);
  const param = candidates.find((p) => p.id === paramId);
  const daily = dim === 'daily' || range.end - range.begin > RAW_LIMIT;
  const history = useHistory(
    deviceId,
    { ...range, params: param ? [param.id] : [], dim: daily ? 'daily' : 'raw', points: 10_000 },
    Boolean(param),
  );
  const size = daily ? DAY : bucketSize(range);
  const data = history.data;
  const grid = useMemo(
    () => (data && param ? depthTimeGrid(data.series.filter((s) => s.param === param.id), catalogue.nodes, size) : null),
    [data, param, catalogue.nodes, size],
  );
  const option = useMemo(
    () =>
      grid && param
        ? heatmapOption({
            times: grid.times,
            depths: catalogue.nodes,
            cells: grid.cells,
            unit: param.unit,
            precision: param.precision,
            name: param.name,
            depthLabel: (depth) => t('depth', { depth }),
            daily: size >= DAY,
            // Moisture runs dry (red) to wet (blue); temperature and salinity low (blue) to high (red).
            colors: param.id === 'soilMoisture' ? MOISTURE_COLORS : [...MOISTURE_COLORS].reverse(),
            dark: mode === 'dark',
          })
        : null,
    [grid, param, catalogue.nodes, size, mode, t],
  );
  if (!param) return null;
  const bucketLabel = size >= DAY ? t('soil.bucketDays', { count: size / DAY }) : t('soil.bucketHours', { count: size / 3_600_000 });
  return (
    <div>
      <div className="fw-poi-view-facts">
        {candidates.length > 1 && (
          <Segmented value={param.id} onChange={setParamId} options={candidates.map((p) => ({ value: p.id, label: p.name }))} />
        )}
        <Typography.Text type="secondary">
          {t('soil.heatmapHint', { bucket: bucketLabel })} {param.id === 'soilMoisture' ? t('soil.wetter') : t('soil.higher')}
        </Typography.Text>
      </div>
      <ChartBlock
        title={param.unit ? `${param.name} (${param.unit})` : param.name}
        option={option}
        empty={!grid || grid.cells.length === 0}
        loading={history.isFetching}
        error={history.error}
        height={Math.max(220, catalogue.nodes.length * 34 + 60)}
        label={t('soil.heatmapLabel', { name: param.name })}
      />
    </div>
  );
}
