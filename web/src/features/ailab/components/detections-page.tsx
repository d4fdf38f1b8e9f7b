import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, DatePicker, Flex, Image, Popconfirm, Select, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { deviceDetailPath } from '@/lib/detail-path';
import { pickerToday } from '@/lib/farm-time';
import { formatDateTime, MISSING, truncateDecimal } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import { PAGE_SIZES } from '@/lib/page';
import { saveFile } from '@/lib/save-file';
import { useRowMutation } from '@/lib/use-row-mutation';
import { useApps } from '../api/applications';
import { useCameras } from '../api/cameras';
import { useDeleteRecord, useDownloadRecords, useRecords, type RecordFilter } from '../api/detections';
import { recordRange, type PickedRange } from '../lib/record-range';
import type { CameraDevice, DetectionRecord } from '../types';
import { LabHeader } from './lab-header';

/** The detection records: filtered by device, application and farm dates, a page at a time; downloaded as XLSX; removed one by one. */
export function DetectionsPage({ title }: { title?: string }) {
  const { t } = useTranslation('ailab');
  const notice = useNotice();
  const cameras = useCameras(true);
  const apps = useApps();
  const [deviceId, setDeviceId] = useState<number>();
  const [appId, setAppId] = useState<number>();
  const [range, setRange] = useState<PickedRange>(null);
  const [paging, setPaging] = useState({ page: 1, size: 20 });
  const filter: RecordFilter = useMemo(() => ({ deviceId, appId, ...recordRange(range) }), [deviceId, appId, range]);
  const records = useRecords(filter, paging.page, paging.size);
  const downloader = useDownloadRecords();
  const { ids: deleting, run: remove } = useRowMutation(useDeleteRecord().mutate);
  const devicesById = useMemo(() => new Map<number, CameraDevice>((cameras.data ?? []).map((device) => [device.id, device])), [cameras.data]);
  const today = pickerToday();

  const narrow = (apply: () => void) => {
    apply();
    setPaging((current) => ({ ...current, page: 1 }));
  };

  const onDownload = () =>
    downloader.mutate(filter, {
      onSuccess: ({ blob, filename }) => saveFile(blob, filename ?? 'detections.xlsx'),
      onError: (error) => notice.error(`${t('downloadFailed')} (${errorMessage(error)})`),
    });

  const columns: TableColumnsType<DetectionRecord> = [
    {
      title: t('records.picture'),
      key: 'picture',
      width: 80,
      render: (_, record) =>
        record.imageUrl ? <Image className="fw-lab-thumb" src={record.imageUrl} alt={t('records.pictureAlt', { device: record.deviceName })} width={64} /> : MISSING,
    },
    {
      title: t('records.device'),
      key: 'device',
      render: (_, record) => {
        const device = devicesById.get(record.deviceId);
        const to = device ? deviceDetailPath({ page: device.page, hashId: device.hashId, id: device.id }) : null;
        return to ? (
          <Link to={to} data-testid={`record-device-${record.id}`}>
            {record.deviceName}
          </Link>
        ) : (
          record.deviceName
        );
      },
    },
    { title: t('records.sn'), dataIndex: 'sn', render: (sn: string) => <Typography.Text className="fw-record-sn">{sn}</Typography.Text> },
    { title: t('records.app'), dataIndex: 'appName' },
    { title: t('records.detectTime'), dataIndex: 'detectTime', render: (time: number) => formatDateTime(time) },
    {
      title: t('records.position'),
      key: 'position',
      render: (_, record) => {
        const coordinates = record.lat !== null && record.lng !== null ? `${truncateDecimal(record.lng, 5)}, ${truncateDecimal(record.lat, 5)}` : '';
        if (!record.location) return coordinates || MISSING;
        return (
          <Flex vertical>
            <span>{record.location}</span>
            {coordinates ? (
              <Typography.Text type="secondary" className="fw-model-meta">
                {coordinates}
              </Typography.Text>
            ) : null}
          </Flex>
        );
      },
    },
    {
      title: t('records.values'),
      key: 'values',
      render: (_, record) => (
        <table className="fw-record-values" data-testid={`record-values-${record.id}`}>
          <thead>
            <tr>
              <th scope="col">{t('records.element')}</th>
              <th scope="col">{t('records.average')}</th>
              <th scope="col">{t('records.valid')}</th>
            </tr>
          </thead>
          <tbody>
            {record.packages.map((value) => (
              <tr key={value.identifier}>
                <th scope="row" title={value.identifier}>
                  {value.unit ? `${value.name} (${value.unit})` : value.name}
                </th>
                <td>{truncateDecimal(value.average, 2)}</td>
                <td>{truncateDecimal(value.valid, 2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ),
    },
    {
      title: t('actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, record) => (
        <Popconfirm title={t('records.deleteConfirm', { device: record.deviceName, time: formatDateTime(record.detectTime) })} onConfirm={() => remove(record.id, record.id, t('deleted'))}>
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            loading={deleting.has(record.id)}
            aria-label={t('records.delete', { device: record.deviceName, time: formatDateTime(record.detectTime) })}
            data-testid={`record-delete-${record.id}`}
          />
        </Popconfirm>
      ),
    },
  ];

  return (
    <div className="fw-page fw-lab" data-testid="lab-detections">
      <LabHeader
        title={title}
        subtitle={t('records.subtitle')}
        actions={
          <Button icon={<DownloadOutlined />} loading={downloader.isPending} onClick={onDownload} data-testid="record-download">
            {t('records.download')}
          </Button>
        }
      />
      <Card variant="borderless" className="fw-lab__card">
        {records.error ? <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('records.loadFailed')} description={errorMessage(records.error)} /> : null}
        <Flex gap={8} wrap className="fw-lab__toolbar" role="search" aria-label={t('records.filters')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('records.deviceFilter')}
            aria-label={t('records.deviceFilter')}
            style={{ width: 240 }}
            value={deviceId}
            loading={cameras.isPending}
            onChange={(value?: number) => narrow(() => setDeviceId(value))}
            options={(cameras.data ?? []).map((device) => ({ value: device.id, label: `${device.name} (${device.sn})` }))}
            data-testid="record-filter-device"
          />
          <Select
            allowClear
            placeholder={t('records.appFilter')}
            aria-label={t('records.appFilter')}
            style={{ width: 200 }}
            value={appId}
            loading={apps.isPending}
            onChange={(value?: number) => narrow(() => setAppId(value))}
            options={(apps.data ?? []).map((app) => ({ value: app.id, label: app.name }))}
            data-testid="record-filter-app"
          />
          <DatePicker.RangePicker
            value={range}
            disabledDate={(date) => date.isAfter(today, 'day')}
            aria-label={t('records.dateFilter')}
            onChange={(value) => narrow(() => setRange(value))}
            data-testid="record-filter-dates"
          />
        </Flex>
        <Table<DetectionRecord>
          rowKey="id"
          columns={columns}
          dataSource={records.data?.list ?? []}
          loading={records.isPending || records.isPlaceholderData}
          pagination={{
            current: paging.page,
            pageSize: paging.size,
            total: records.data?.total ?? 0,
            pageSizeOptions: PAGE_SIZES,
            showSizeChanger: true,
            showTotal: (total) => t('records.total', { count: total }),
            onChange: (page, size) => setPaging({ page: size === paging.size ? page : 1, size }),
          }}
          locale={{ emptyText: t('records.empty') }}
          scroll={{ x: 'max-content' }}
          data-testid="record-table"
        />
      </Card>
    </div>
  );
}
