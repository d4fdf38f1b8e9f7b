import { EditOutlined, EnvironmentOutlined, RightOutlined, ShareAltOutlined } from '@ant-design/icons';
import { Button, Empty, Space, Table, Tag, Tooltip, Typography, type TableColumnsType, type TableProps } from 'antd';
import { useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { selectAllTitle } from '@/components/select-all-title';
import { MISSING } from '@/lib/format';
import { deviceDetailPath } from '@/lib/detail-path';
import { fittingColumns, type FitColumn } from '../column-fit';
import { formatCoordinates } from '../display';
import { PAGE_SIZES } from '../list-query';
import { SORT_KEYS, type Device, type SortKey, type SortOrder } from '../types';
import { BatteryCell } from './battery-cell';
import { DeviceTagsCell } from './device-tags-cell';
import { ReportTime } from './report-time';
import { SignalCell } from './signal-cell';
import { StatusTag } from './status-tag';
import './devices.css';

export interface DeviceTableProps {
  devices: Device[];
  total: number;
  loading: boolean;
  page: number;
  size: number;
  sort?: SortKey;
  order?: SortOrder;
  /** The time relative report times are measured from. */
  now: number;
  onPageChange: (page: number, size: number) => void;
  onSortChange: (sort?: SortKey, order?: SortOrder) => void;
  onRename: (device: Device) => void;
  onShowOnMap: (device: Device) => void;
  /** Ids of the checked rows; with onSelect, the table gets checkboxes for the caller's own devices. */
  selectedIds?: readonly number[];
  onSelect?: (ids: number[], devices: Device[]) => void;
  /** Opens sharing for one of the caller's own devices. */
  onShare?: (device: Device) => void;
}

/** What the caller may do with a device; list rows carry it once sharing is known to the server. */
interface DeviceRight {
  owner: boolean;
  rename: boolean;
}

function rightOf(device: Device): DeviceRight {
  const { right } = device as Device & { right?: DeviceRight };
  if (right) return right;
  // Without rights in the answer, one's own devices are fully editable and shared ones are not.
  const mine = device.belong === 'mine';
  return { owner: mine, rename: mine };
}

/** Only the owner shares or transfers a device. */
function canShare(device: Device): boolean {
  return rightOf(device).owner;
}

/**
 * Each column's width and how much it matters: status, power, tags and the actions always show;
 * then the last report, the type, the SN and the place, as far as the table's width allows.
 */
function fitColumnsFor(shareable: boolean): FitColumn[] {
  return [
    { key: 'name', width: 140, priority: 0 },
    { key: 'sn', width: 116, priority: 3 },
    { key: 'type', width: 180, priority: 2 },
    { key: 'status', width: 84, priority: 0 },
    { key: 'lastReport', width: 108, priority: 1 },
    { key: 'power', width: 116, priority: 0 },
    { key: 'tags', width: 140, priority: 0 },
    { key: 'location', width: 160, priority: 4 },
    { key: 'actions', width: shareable ? 164 : 136, priority: 0 },
  ];
}

const SELECTION_WIDTH = 40;

/**
 * The element's content width, followed as it changes (window, side menu); 0 until laid out.
 * Read before the first paint: rows drawn with every column and then narrowed to the ones that
 * fit would all move sideways (a layout shift of the whole list).
 */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

function isSortKey(value: unknown): value is SortKey {
  return typeof value === 'string' && (SORT_KEYS as readonly string[]).includes(value);
}

/** The device list: server-side paging and sorting, so it stays fast with ten thousand devices. */
export function DeviceTable({
  devices,
  total,
  loading,
  page,
  size,
  sort,
  order,
  now,
  onPageChange,
  onSortChange,
  onRename,
  onShowOnMap,
  selectedIds,
  onSelect,
  onShare,
}: DeviceTableProps) {
  const { t } = useTranslation('devices');
  const [box, available] = useWidth();
  const fit = useMemo(() => fitColumnsFor(Boolean(onShare)), [onShare]);
  const reserved = onSelect ? SELECTION_WIDTH : 0;
  const shown = useMemo(() => fittingColumns(fit, available, reserved), [fit, available, reserved]);

  const allColumns = useMemo<TableColumnsType<Device>>(() => {
    const widthOf = (key: string) => fit.find((column) => column.key === key)?.width;
    const sortOrder = (key: SortKey) => (sort === key ? (order === 'desc' ? 'descend' : 'ascend') : null);
    return [
      {
        key: 'name',
        title: t('columns.name'),
        dataIndex: 'name',
        fixed: 'left',
        width: widthOf('name'),
        sorter: true,
        sortOrder: sortOrder('name'),
        render: (_, device) => {
          const path = deviceDetailPath(device);
          return (
            <Space size={4} wrap={false} className="fw-device-name">
              <Tooltip title={device.name} mouseEnterDelay={0.5}>
                {path ? (
                  <Link to={path} className="fw-device-name__link fw-ellipsis">
                    {device.name}
                  </Link>
                ) : (
                  <span className="fw-ellipsis">{device.name}</span>
                )}
              </Tooltip>
              {device.slave && <Tag className="fw-badge">{t('badges.slave')}</Tag>}
              {device.belong === 'shared' && (
                <Tag color="blue" className="fw-badge">
                  {t('badges.shared')}
                </Tag>
              )}
            </Space>
          );
        },
      },
      {
        key: 'sn',
        title: t('columns.sn'),
        dataIndex: 'sn',
        width: widthOf('sn'),
        sorter: true,
        sortOrder: sortOrder('sn'),
        render: (sn: string) => <span className="fw-sn">{sn}</span>,
      },
      {
        key: 'type',
        title: t('columns.type'),
        dataIndex: 'typeName',
        // No width of its own: the type takes what the other columns leave (at least its fit width).
        sorter: true,
        sortOrder: sortOrder('type'),
        ellipsis: { showTitle: false },
        render: (_, device) => (
          <Tooltip title={`${device.typeName} · ${device.model}`}>
            <div className="fw-device-type">
              <div className="fw-ellipsis">{device.typeName || MISSING}</div>
              <Typography.Text type="secondary" className="fw-device-type__model">
                {device.model}
              </Typography.Text>
            </div>
          </Tooltip>
        ),
      },
      {
        key: 'status',
        title: t('columns.status'),
        dataIndex: 'status',
        width: widthOf('status'),
        sorter: true,
        sortOrder: sortOrder('status'),
        render: (_, device) => <StatusTag status={device.status} name={device.statusName} />,
      },
      {
        key: 'lastReport',
        title: t('columns.lastReport'),
        dataIndex: 'lastReportTime',
        width: widthOf('lastReport'),
        sorter: true,
        sortOrder: sortOrder('lastReport'),
        render: (time: number | null) => <ReportTime time={time} now={now} />,
      },
      {
        key: 'power',
        title: t('columns.power'),
        dataIndex: 'battery',
        width: widthOf('power'),
        render: (_, device) => (
          <div className="fw-power">
            <BatteryCell volts={device.battery} />
            <SignalCell dbm={device.signal} />
          </div>
        ),
      },
      {
        key: 'tags',
        title: t('columns.tags'),
        dataIndex: 'tags',
        width: widthOf('tags'),
        render: (_, device) => <DeviceTagsCell device={device} />,
      },
      {
        key: 'location',
        title: t('columns.location'),
        dataIndex: 'location',
        // Where it does not fit, the actions' map button stands in for it.
        width: widthOf('location'),
        render: (_, device) => {
          const coordinates = formatCoordinates(device.lng, device.lat);
          const text = device.location || coordinates;
          return (
            <Tooltip title={device.location ? coordinates : undefined}>
              <span className="fw-ellipsis">{text}</span>
            </Tooltip>
          );
        },
      },
      {
        key: 'actions',
        title: t('columns.actions'),
        fixed: 'right',
        width: widthOf('actions'),
        render: (_, device) => {
          const path = deviceDetailPath(device);
          const placed = formatCoordinates(device.lng, device.lat) !== MISSING;
          const right = rightOf(device);
          return (
            <Space size={0} className="fw-device-actions">
              <Tooltip title={right.rename ? t('actions.rename') : t('actions.noRename')}>
                <Button
                  type="text"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('actions.rename')}
                  disabled={!right.rename}
                  onClick={() => onRename(device)}
                />
              </Tooltip>
              {onShare && (
                <Tooltip title={right.owner ? t('actions.shareOne') : t('actions.onlyMine')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ShareAltOutlined />}
                    aria-label={t('actions.shareOne')}
                    disabled={!right.owner}
                    onClick={() => onShare(device)}
                  />
                </Tooltip>
              )}
              <Tooltip title={placed ? t('actions.showOnMap') : t('actions.noLocation')}>
                <Button
                  type="text"
                  size="small"
                  icon={<EnvironmentOutlined />}
                  aria-label={t('actions.showOnMap')}
                  className="fw-device-location"
                  disabled={!placed}
                  onClick={() => onShowOnMap(device)}
                />
              </Tooltip>
              {path ? (
                <Link to={path} className="fw-detail-link">
                  {t('actions.detail')} <RightOutlined />
                </Link>
              ) : (
                <Tooltip title={t('actions.noDetail')}>
                  <Button type="link" size="small" disabled>
                    {t('actions.detail')}
                  </Button>
                </Tooltip>
              )}
            </Space>
          );
        },
      },
    ];
  }, [t, sort, order, now, onRename, onShowOnMap, onShare, fit]);
  const columns = allColumns.filter((column) => shown.has(String(column.key)));
  const tableWidth = reserved + fit.filter((column) => shown.has(column.key)).reduce((sum, column) => sum + column.width, 0);

  const onChange: TableProps<Device>['onChange'] = (pagination, _filters, sorter, { action }) => {
    if (action === 'sort') {
      const single = Array.isArray(sorter) ? sorter[0] : sorter;
      const key = single?.columnKey;
      if (single?.order && isSortKey(key)) onSortChange(key, single.order === 'descend' ? 'desc' : 'asc');
      else onSortChange(undefined, undefined);
      return;
    }
    if (action === 'paginate') onPageChange(pagination.current ?? 1, pagination.pageSize ?? size);
  };

  // Before the first page arrives the table keeps the height of a full page of rows, so the page
  // is as tall as it will be (its scrollbar there from the start) and nothing moves when they come.
  const pending = loading && devices.length === 0;
  return (
    <div ref={box}>
      <Table<Device>
        rowKey="id"
        size="middle"
        className={pending ? 'fw-device-table fw-device-table--pending' : 'fw-device-table'}
        style={pending ? ({ '--fw-device-table-rows': size } as CSSProperties) : undefined}
        columns={columns}
        dataSource={devices}
        loading={loading}
        onChange={onChange}
        rowSelection={
          onSelect && {
            columnTitle: selectAllTitle,
            selectedRowKeys: selectedIds as number[] | undefined,
            preserveSelectedRowKeys: true,
            columnWidth: SELECTION_WIDTH,
            fixed: 'left',
            getCheckboxProps: (device) => ({ disabled: !canShare(device), 'aria-label': device.name }),
            onChange: (keys, rows) => onSelect(keys as number[], rows),
          }
        }
        scroll={{ x: tableWidth }}
        sticky={{ offsetHeader: 56 }}
        showSorterTooltip={false}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} /> }}
        pagination={{
          current: page,
          pageSize: size,
          total,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          showTotal: (count) => t('total', { count }),
        }}
      />
    </div>
  );
}
