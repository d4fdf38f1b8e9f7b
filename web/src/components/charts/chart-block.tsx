import { Empty, Spin, Typography } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { LazyChart } from './lazy-chart';
import './charts.css';

interface ChartBlockProps {
  title: ReactNode;
  extra?: ReactNode;
  /** Null while there is nothing to draw yet. */
  option: EChartsCoreOption | null;
  empty: boolean;
  loading: boolean;
  error?: unknown;
  height?: number;
  label: string;
  /** Why there is nothing to draw; the generic "no data in this period" otherwise. */
  emptyText?: string;
}

/** A titled chart with its loading, error and empty states. */
export function ChartBlock({ title, extra, option, empty, loading, error, height = 240, label, emptyText }: ChartBlockProps) {
  const { t } = useTranslation('common');
  let body: ReactNode;
  if (error && !option) body = <ServerErrorAlert error={error} />;
  else if (!option && loading) body = <div className="fw-chart-loading" style={{ height }} />;
  else if (empty || !option)
    body = (
      <Empty
        className="fw-chart-empty"
        data-testid="poi-chart-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={emptyText ?? t('noDataInPeriod')}
        style={{ height }}
      />
    );
  else body = <LazyChart option={option} height={height} label={label} />;
  return (
    <section className="fw-chart-block">
      <div className="fw-chart-block__head">
        <Typography.Text strong>{title}</Typography.Text>
        {extra}
      </div>
      <Spin spinning={loading && Boolean(option)} delay={200}>
        {body}
      </Spin>
    </section>
  );
}
