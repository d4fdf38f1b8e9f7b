import { DatePicker, Empty, Skeleton, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import type { Range } from '@/lib/time-range';
import { farmTime, fromPicker, pickerToday, toPicker } from '@/lib/farm-time';

/** Picks whole days; an empty choice leaves the server's default span. */
export function DaysPicker({ range, onRange, maxDays, testId }: { range: Range; onRange: (range: Range) => void; maxDays: number; testId: string }) {
  const { t } = useTranslation('poi');
  const value: [Dayjs, Dayjs] | null = range.begin !== undefined && range.end !== undefined ? [toPicker(range.begin), toPicker(range.end - 1)] : null;
  return (
    <DatePicker.RangePicker
      data-testid={testId}
      value={value}
      aria-label={t('history.customRange')}
      placeholder={[t('history.from'), t('history.to')]}
      disabledDate={(current, { from }) =>
        current.isAfter(pickerToday().endOf('day')) || (from ? Math.abs(current.diff(from, 'day')) >= maxDays : false)
      }
      onChange={(dates) => {
        if (dates?.[0] && dates[1]) onRange({ begin: fromPicker(dates[0].startOf('day')).valueOf(), end: Math.min(fromPicker(dates[1].startOf('day')).add(1, 'day').valueOf(), Date.now()) });
        else onRange({});
      }}
    />
  );
}

export function Period({ begin, end }: { begin: number; end: number }) {
  const { t } = useTranslation('poi');
  return (
    <Typography.Text type="secondary" className="fw-poi-analysis__period">
      {t('analyses.period', { begin: farmTime(begin).format('YYYY-MM-DD'), end: farmTime(end - 1).format('YYYY-MM-DD') })}
    </Typography.Text>
  );
}

/** Loading, error and the body of a tab, with the range picker on top. */
export function TabBody({ toolbar, loading, error, children }: { toolbar: ReactNode; loading: boolean; error: unknown; children: ReactNode }) {
  return (
    <div className="fw-poi-analysis">
      <div className="fw-poi-analysis__toolbar">{toolbar}</div>
      {error ? <ServerErrorAlert error={error} /> : loading ? <Skeleton active /> : children}
    </div>
  );
}

export function Explicit({ text, testId }: { text: string; testId: string }) {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} data-testid={testId} />;
}
