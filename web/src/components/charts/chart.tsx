import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { EChartsCoreOption } from 'echarts/core';
import { echarts } from './echarts';

export interface ChartProps {
  option: EChartsCoreOption;
  height: number;
  dark: boolean;
  /** ECharts events by name, e.g. datazoom. */
  onEvents?: Record<string, (event: unknown) => void>;
}

/** One ECharts canvas. This module and ECharts load only when a chart is first shown. */
export default function Chart({ option, height, dark, onEvents }: ChartProps) {
  return (
    <ReactEChartsCore
      echarts={echarts}
      option={option}
      theme={dark ? 'dark' : undefined}
      notMerge
      lazyUpdate
      style={{ height, width: '100%' }}
      opts={{ renderer: 'canvas' }}
      onEvents={onEvents}
    />
  );
}
