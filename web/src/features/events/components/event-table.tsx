import { Button, Empty, Table, Tooltip, Typography, type TableColumnsType, type TableProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { selectAllTitle } from '@/components/select-all-title';
import { formatDateTime, formatReportTime } from '@/lib/format';
import { PAGE_SIZES } from '@/lib/page';
import type { Message } from '../types';
import { EventLevelTag, KindTag } from './event-tags';
import './events.css';

export interface EventTableProps {
  items: Message[];
  total: number;
  loading: boolean;
  page: number;
  size: number;
  /** The time report times are shown relative to (SPEC §9: HH:mm today, MM.DD HH:mm this year). */
  now: number;
  emptyText: string;
  /** Device names by id, where known (messages carry only the SN). */
  deviceNames: ReadonlyMap<number, string>;
  onPageChange: (page: number, size: number) => void;
  /** The inbox: unread rows stand out and can be selected and marked read. */
  inbox?: {
    selected: number[];
    onSelect: (ids: number[]) => void;
    onMarkRead: (message: Message) => void;
    marking: boolean;
  };
}

/** Events or messages: when, what kind, which rule and device, and what happened. */
export function EventTable({ items, total, loading, page, size, now, emptyText, deviceNames, onPageChange, inbox }: EventTableProps) {
  const { t } = useTranslation('rules');

  const columns = useMemo<TableColumnsType<Message>>(() => {
    const list: TableColumnsType<Message> = [
      {
        key: 'time',
        title: t('events.columns.time'),
        dataIndex: 'time',
        width: 124,
        render: (time: number, message) => (
          <Tooltip title={formatDateTime(time)}>
            <span className="fw-event-time">
              {inbox && !message.read && <span className="fw-event-dot" role="img" aria-label={t('events.unreadMark')} />}
              {formatReportTime(time, now)}
            </span>
          </Tooltip>
        ),
      },
      {
        key: 'kind',
        title: t('events.columns.kind'),
        dataIndex: 'kind',
        width: 124,
        render: (kind: Message['kind']) => <KindTag kind={kind} />,
      },
      {
        key: 'level',
        title: t('events.columns.level'),
        dataIndex: 'level',
        width: 80,
        render: (level: Message['level']) => <EventLevelTag level={level} />,
      },
      {
        key: 'rule',
        title: t('events.columns.rule'),
        dataIndex: 'ruleName',
        width: 140,
        render: (name: string) => <span className="fw-event-rule">{name}</span>,
      },
      {
        key: 'device',
        title: t('events.columns.device'),
        dataIndex: 'sn',
        width: 200,
        render: (sn: string, message) => {
          const name = deviceNames.get(message.ruleDeviceId);
          return (
            <div className="fw-event-device">
              {name ? <span>{name}</span> : <span className="fw-event-sn">{sn}</span>}
              <Typography.Text type="secondary" className="fw-event-type">
                {name ? `${sn} · ${message.deviceType}` : message.deviceType}
              </Typography.Text>
            </div>
          );
        },
      },
      {
        key: 'description',
        title: t('events.columns.description'),
        dataIndex: 'description',
        render: (description: string) => <span className="fw-event-description">{description}</span>,
      },
    ];
    if (inbox) {
      list.push({
        key: 'actions',
        title: t('events.columns.actions'),
        width: 100,
        render: (_, message) =>
          message.read ? null : (
            <Button type="link" size="small" disabled={inbox.marking} onClick={() => inbox.onMarkRead(message)}>
              {t('events.markRead')}
            </Button>
          ),
      });
    }
    return list;
  }, [t, now, inbox, deviceNames]);

  const rowSelection: TableProps<Message>['rowSelection'] = inbox && {
    columnTitle: selectAllTitle,
    selectedRowKeys: inbox.selected,
    onChange: (keys) => inbox.onSelect(keys as number[]),
    getCheckboxProps: (message) => ({ disabled: message.read }),
  };

  return (
    <Table<Message>
      className="fw-event-table"
      rowKey="messageId"
      columns={columns}
      dataSource={items}
      loading={loading}
      rowSelection={rowSelection}
      rowClassName={(message) => (inbox && !message.read ? 'fw-event-row--unread' : '')}
      scroll={{ x: 1000 }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} /> }}
      pagination={{
        current: page,
        pageSize: size,
        total,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES,
        showTotal: (count) => t('events.total', { count }),
        onChange: onPageChange,
      }}
    />
  );
}
