import { Skeleton } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { lazy, Suspense } from 'react';
import { useThemeMode } from '@/lib/theme';
import './charts.css';

const Chart = lazy(() => import('./chart'));

/** A chart whose ECharts code is fetched on first use; the page shows a placeholder meanwhile. */
export function LazyChart({ option, height = 260, label, onEvents }: {
  option: EChartsCoreOption;
  height?: number;
  label: string;
  /** ECharts events by name, e.g. datazoom. */
  onEvents?: Record<string, (event: unknown) => void>;
}) {
  const { mode } = useThemeMode();
  return (
    <div className="fw-chart" data-testid="poi-chart" role="img" aria-label={label} style={{ minHeight: height }}>
      <Suspense fallback={<Skeleton.Node active className="fw-chart__placeholder" style={{ height, width: '100%' }} />}>
        <Chart option={option} height={height} dark={mode === 'dark'} onEvents={onEvents} />
      </Suspense>
    </div>
  );
}
