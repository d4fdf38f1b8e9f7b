import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DailyAgg, NodeAggregation } from '@/lib/telemetry/types';
import type { SeriesLabels } from './history-series';

/** How chart lines are named in the UI's language: depths, depths combined, daily statistics. */
export function useSeriesLabels(): SeriesLabels {
  const { t } = useTranslation('poi');
  return useMemo(
    () => ({
      depth: (depth: number) => t('depth', { depth }),
      aggregated: (how: Exclude<NodeAggregation, 'none'>) => t(`history.aggregatedSeries.${how}`),
      stat: (agg: DailyAgg) => t(`history.stats.${agg}`),
      dailyMin: t('history.stats.min'),
      dailyMax: t('history.stats.max'),
    }),
    [t],
  );
}
