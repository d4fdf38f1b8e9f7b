import { Segmented } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartBlock } from '@/components/charts/chart-block';
import { axisColors, PALETTE } from '@/components/charts/chart-options';
import { useThemeMode } from '@/lib/theme';
import { bandLabel, type Report } from '../types';

/**
 * Each region's daily relative moisture in one band over the period, with the stage's light-drought
 * line (60 / a) and the waterlogging line (90 %), as in the PDF.
 */
export function BandChart({ report, coefficient }: { report: Report; coefficient: number }) {
  const { t } = useTranslation('briefing');
  const { mode } = useThemeMode();
  const [band, setBand] = useState(1);
  const option = useMemo<EChartsCoreOption>(() => {
    const colors = axisColors(mode === 'dark');
    const days = report.days.map((d) => d.slice(5, 10));
    const a = coefficient || 1;
    return {
      color: PALETTE,
      grid: { left: 44, right: 16, top: 36, bottom: 28 },
      legend: { top: 0, textStyle: { color: colors.text } },
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? `${v.toFixed(1)} %` : '—') },
      xAxis: { type: 'category', data: days, axisLabel: { color: colors.text }, axisLine: { lineStyle: { color: colors.line } } },
      yAxis: {
        type: 'value',
        min: 0,
        max: 120,
        axisLabel: { color: colors.text, formatter: '{value}%' },
        splitLine: { lineStyle: { color: colors.split } },
      },
      series: report.regions.map((region, index) => ({
        name: region.name,
        type: 'line',
        connectNulls: false,
        data: region.bands[band - 1].daily,
        markLine:
          index === 0
            ? {
                symbol: 'none',
                silent: true,
                label: { position: 'insideEndTop', color: colors.text },
                data: [
                  { yAxis: Math.round(60 / a), name: t('chart.light'), lineStyle: { color: '#d4b106', type: 'dashed' }, label: { formatter: t('chart.light') } },
                  { yAxis: 90, name: t('chart.wet'), lineStyle: { color: '#1677ff', type: 'dashed' }, label: { formatter: t('chart.wet') } },
                ],
              }
            : undefined,
      })),
    };
  }, [report, band, coefficient, mode, t]);
  const empty = report.regions.every((r) => r.bands[band - 1].daily.every((v) => v === null));
  return (
    <ChartBlock
      title={t('chart.title')}
      extra={<Segmented size="small" value={band} onChange={(v) => setBand(Number(v))} options={[1, 2, 3].map((b) => ({ value: b, label: bandLabel(b) }))} />}
      option={option}
      empty={empty}
      loading={false}
      label={t('chart.title')}
      height={260}
    />
  );
}
