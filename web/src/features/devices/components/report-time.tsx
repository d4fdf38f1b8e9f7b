import { Tooltip, Typography } from 'antd';
import { formatDateTime, formatRelativeTime, formatReportTime, MISSING } from '@/lib/format';

/** When a device last reported: SPEC §9's report time, how long ago, and the full time on hover. */
export function ReportTime({ time, now }: { time: number | null; now: number }) {
  if (time === null) return <Typography.Text type="secondary">{MISSING}</Typography.Text>;
  return (
    <Tooltip title={formatDateTime(time)}>
      <span className="fw-report-time">
        <span>{formatReportTime(time, now)}</span>
        <Typography.Text type="secondary" className="fw-report-time__ago">
          {formatRelativeTime(time, now)}
        </Typography.Text>
      </span>
    </Tooltip>
  );
}
