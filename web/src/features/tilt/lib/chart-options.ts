/** ECharts option of the tilt sensor's lean, drawn on polar axes. */
import type { EChartsCoreOption } from 'echarts/core';
import { axisColors, escapeHtml, formatAxisTime, PALETTE } from '@/components/charts/chart-options';
import { formatWithUnit, truncateDecimal } from '@/lib/format';

export interface YawSpec {
  /** Oldest first. */
  points: readonly { time: number; direction: number; tilt: number }[];
  labels: { points: string; latest: string; direction: string; tilt: string; xAxis: string; yAxis: string };
  dark: boolean;
}

/**
 * Where the monitor leans: direction round the circle (counter-clockwise from the sensor's X axis,
 * which points right) and the tilt from vertical as the distance from the centre.
 */
export function yawOption(spec: YawSpec): EChartsCoreOption {
  const colors = axisColors(spec.dark);
  const last = spec.points[spec.points.length - 1];
  const maxTilt = spec.points.reduce((m, p) => Math.max(m, p.tilt), 0);
  const first = spec.points[0]?.time ?? 0;
  const span = Math.max(1, (last?.time ?? 0) - first);
  const tooltip = (p: { value?: [number, number, number] }) => {
    const [tilt, direction, time] = p.value ?? [Number.NaN, Number.NaN, 0];
    return [
      escapeHtml(formatAxisTime(time, false)),
      `${escapeHtml(spec.labels.direction)}&nbsp;&nbsp;<b>${escapeHtml(formatWithUnit(direction, '°', 1))}</b>`,
      `${escapeHtml(spec.labels.tilt)}&nbsp;&nbsp;<b>${escapeHtml(formatWithUnit(tilt, '°', 2))}</b>`,
    ].join('<br/>');
  };
  return {
    backgroundColor: 'transparent',
    animation: false,
    legend: { bottom: 0, textStyle: { color: colors.text } },
    tooltip: { trigger: 'item', confine: true, formatter: tooltip },
    polar: { radius: '72%', center: ['50%', '48%'] },
    angleAxis: {
      type: 'value',
      min: 0,
      max: 360,
      startAngle: 0,
      clockwise: false,
      interval: 45,
      axisLine: { lineStyle: { color: colors.line } },
      axisLabel: {
        color: colors.text,
        formatter: (value: number) => (value === 0 ? `0° ${spec.labels.xAxis}` : value === 90 ? `90° ${spec.labels.yAxis}` : `${value}°`),
      },
      splitLine: { lineStyle: { color: colors.split } },
    },
    radiusAxis: {
      type: 'value',
      min: 0,
      max: maxTilt > 0 ? Math.ceil(maxTilt * 1.15 * 100) / 100 : 1,
      axisLabel: { color: colors.text, formatter: (value: number) => `${truncateDecimal(value, 2)}°` },
      splitLine: { lineStyle: { color: colors.split } },
      axisLine: { lineStyle: { color: colors.line } },
    },
    series: [
      {
        type: 'scatter',
        coordinateSystem: 'polar',
        name: spec.labels.points,
        symbolSize: 5,
        // Older readings fade: the trail shows which way the lean has been moving.
        data: spec.points.map((p) => ({ value: [p.tilt, p.direction, p.time], itemStyle: { opacity: 0.2 + (0.6 * (p.time - first)) / span } })),
        itemStyle: { color: PALETTE[0] },
      },
      {
        type: 'scatter',
        coordinateSystem: 'polar',
        name: spec.labels.latest,
        symbolSize: 14,
        symbol: 'diamond',
        data: last ? [[last.tilt, last.direction, last.time]] : [],
        itemStyle: { color: '#f5222d' },
        z: 3,
      },
    ],
  };
}
