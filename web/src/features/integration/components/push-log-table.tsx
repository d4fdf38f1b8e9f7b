import { RedoOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Empty, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, MISSING } from '@/lib/format';
import { formatDuration, prettyJson } from '../format';
import type { DeviceChoice, PushLogEntry } from '../types';
import { PushStatusTag } from './push-status-tag';
import './integration.css';
import { farmTime } from '@/lib/farm-time';

export const LOG_PAGE_SIZES = [20, 50, 100];

export interface PushLogTableProps {
  entries: PushLogEntry[];
  total: number;
  loading: boolean;
  page: number;
  size: number;
  /** Channel names by id, for the channel column. */
  channelNames: ReadonlyMap<number, string>;
  /** Devices by id, to show names and SNs instead of ids. */
  devices: ReadonlyMap<number, DeviceChoice>;
  /** Hide the channel column when the log is of one channel. */
  showChannel: boolean;
  retrying: ReadonlySet<number>;
  onRetry: (entry: PushLogEntry) => void;
  onPageChange: (page: number, size: number) => void;
}

function DateTimeCell({ time }: { time: number | null | undefined }) {
  if (time === null || time === undefined) return <Typography.Text type="secondary">{MISSING}</Typography.Text>;
  const [date, clock] = formatDateTime(time).split(' ');
  return (
    <div className="fw-push-cell">
      <span>{clock}</span>
      <Typography.Text type="secondary" className="fw-push-cell__secondary">
        {date}
      </Typography.Text>
    </div>
  );
}

function StatusCell({ entry }: { entry: PushLogEntry }) {
  const { t } = useTranslation('integration');
  let detail: string | null = null;
  if (entry.status === 'pending') {
    detail =
      entry.attempts === 0
        ? t('log.waiting')
        : t('log.nextAttempt', { time: entry.nextTime ? farmTime(entry.nextTime).format('HH:mm:ss') : MISSING, count: entry.attempts });
  } else if (entry.status === 'fail') {
    detail = t('log.gaveUp', { count: entry.attempts });
  } else if (entry.attempts > 1) {
    detail = t('log.afterAttempts', { count: entry.attempts });
  }
  return (
    <div className="fw-push-cell">
      <span>
        <PushStatusTag status={entry.status} />
      </span>
      {detail && (
        <Typography.Text type="secondary" className="fw-push-cell__secondary" data-testid="status-detail">
          {detail}
        </Typography.Text>
      )}
      {entry.status !== 'success' && entry.error && (
        <Typography.Text type="danger" className="fw-push-cell__secondary" ellipsis={{ tooltip: entry.error }}>
          {entry.error}
        </Typography.Text>
      )}
    </div>
  );
}

/** What was sent and what went wrong, under a row. */
function EntryDetail({ entry, device }: { entry: PushLogEntry; device?: DeviceChoice }) {
  const { t } = useTranslation('integration');
  return (
    <div className="fw-push-entry" data-testid="log-detail">
      {entry.error && <Alert type="error" showIcon title={t('log.errorTitle')} description={entry.error} className="fw-push-entry__error" />}
      <Descriptions
        size="small"
        column={3}
        items={[
          { key: 'delivery', label: t('log.deliveryId'), children: entry.id },
          { key: 'device', label: t('log.deviceId'), children: device ? `${device.name} (${device.sn}, #${entry.deviceId})` : `#${entry.deviceId}` },
          { key: 'queued', label: t('log.queued'), children: formatDateTime(entry.createTime) },
          { key: 'attempts', label: t('log.attempts'), children: entry.attempts },
          { key: 'http', label: t('log.httpStatus'), children: entry.httpStatus || MISSING },
          { key: 'next', label: t('log.next'), children: entry.status === 'pending' && entry.nextTime ? formatDateTime(entry.nextTime) : MISSING },
        ]}
      />
      <Typography.Text strong>{t('log.body')}</Typography.Text>
      <pre className="fw-code" data-testid="log-body">
        {prettyJson(entry.data)}
      </pre>
    </div>
  );
}

/** The push log: one row per report per channel, newest first; a failed row can be sent again. */
export function PushLogTable({
  entries,
  total,
  loading,
  page,
  size,
  channelNames,
  devices,
  showChannel,
  retrying,
  onRetry,
  onPageChange,
}: PushLogTableProps) {
  const { t } = useTranslation('integration');
  const columns = useMemo<TableColumnsType<PushLogEntry>>(() => {
    const all: (TableColumnsType<PushLogEntry>[number] | false)[] = [
      {
        key: 'pushTime',
        title: (
          <Tooltip title={t('log.pushTimeHint')}>
            <span className="fw-push-hint">{t('log.columns.pushTime')}</span>
          </Tooltip>
        ),
        width: 112,
        render: (_, entry) => <DateTimeCell time={entry.pushTime} />,
      },
      showChannel && {
        key: 'channel',
        title: t('log.columns.channel'),
        dataIndex: 'channelId',
        width: 150,
        ellipsis: true,
        render: (channelId: number) => channelNames.get(channelId) ?? `#${channelId}`,
      },
      {
        key: 'device',
        title: t('log.columns.device'),
        dataIndex: 'deviceId',
        render: (deviceId: number) => {
          const device = devices.get(deviceId);
          return device ? (
            <div className="fw-push-cell">
              <span>{device.name}</span>
              <Typography.Text type="secondary" className="fw-push-cell__secondary">
                {device.sn}
              </Typography.Text>
            </div>
          ) : (
            `#${deviceId}`
          );
        },
      },
      {
        key: 'collectTime',
        title: (
          <Tooltip title={t('log.collectTimeHint')}>
            <span className="fw-push-hint">{t('log.columns.collectTime')}</span>
          </Tooltip>
        ),
        dataIndex: 'collectTime',
        width: 112,
        render: (time: number) => <DateTimeCell time={time} />,
      },
      {
        key: 'status',
        title: t('log.columns.status'),
        width: 220,
        render: (_, entry) => <StatusCell entry={entry} />,
      },
      {
        key: 'duration',
        title: t('log.columns.duration'),
        dataIndex: 'duration',
        width: 96,
        render: (duration: number | null) => formatDuration(duration),
      },
      {
        key: 'actions',
        title: t('log.columns.actions'),
        width: 96,
        render: (_, entry) =>
          entry.status === 'fail' ? (
            <Button
              size="small"
              icon={<RedoOutlined />}
              loading={retrying.has(entry.id)}
              onClick={(event) => {
                event.stopPropagation();
                onRetry(entry);
              }}
              data-testid="log-retry"
            >
              {t('log.retry')}
            </Button>
          ) : null,
      },
    ];
    return all.filter((column): column is TableColumnsType<PushLogEntry>[number] => column !== false);
  }, [t, showChannel, channelNames, devices, retrying, onRetry]);

  return (
    <Table<PushLogEntry>
      className="fw-push-table fw-push-log"
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={entries}
      loading={loading}
      scroll={{ x: 900 }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('log.empty')} /> }}
      expandable={{
        expandedRowRender: (entry) => <EntryDetail entry={entry} device={devices.get(entry.deviceId)} />,
        expandRowByClick: true,
      }}
      pagination={{
        current: page,
        pageSize: size,
        total,
        showSizeChanger: true,
        pageSizeOptions: LOG_PAGE_SIZES,
        showTotal: (count) => t('log.total', { count }),
        onChange: onPageChange,
        hideOnSinglePage: true,
      }}
    />
  );
}
