import { CameraOutlined, DeleteOutlined, EditOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, DatePicker, Flex, Input, Popconfirm, Select, Table, Tag, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { selectAllTitle } from '@/components/select-all-title';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, MISSING } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import { useRowMutation } from '@/lib/use-row-mutation';
import { sampleImageSrc, useDeleteSample, useSamples, useUpdateSample } from '../api/samples';
import { filterSamples, NO_FILTER, sampleTags, type SampleFilter } from '../lib/filters';
import type { Sample } from '../types';
import { FromCameraModal } from './from-camera-modal';
import { LabHeader } from './lab-header';
import { UploadModal } from './upload-modal';

export function labelPath(id: number): string {
  return paths.modelService.sampleLabel.replace(':sampleId', String(id));
}

/** A sample's tag, changed in place. */
function TagCell({ sample }: { sample: Sample }) {
  const { t } = useTranslation('ailab');
  const notice = useNotice();
  const update = useUpdateSample();
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <Input
        size="small"
        autoFocus
        defaultValue={sample.tag}
        maxLength={32}
        style={{ width: 120 }}
        aria-label={t('samples.tagOf', { id: sample.id })}
        onBlur={() => setEditing(false)}
        onKeyDown={(event) => event.key === 'Escape' && setEditing(false)}
        onPressEnter={(event) => {
          const tag = event.currentTarget.value.trim();
          setEditing(false);
          if (tag === sample.tag) return;
          update.mutate(
            { id: sample.id, tag, location: sample.location, labels: sample.labels },
            { onSuccess: () => notice.success(t('saved')), onError: (error) => notice.error(errorMessage(error)) },
          );
        }}
      />
    );
  }
  return (
    <Flex gap={4} align="center">
      {sample.tag ? <Tag>{sample.tag}</Tag> : <Typography.Text type="secondary">{MISSING}</Typography.Text>}
      <Button size="small" type="text" icon={<EditOutlined />} loading={update.isPending} onClick={() => setEditing(true)} aria-label={t('samples.editTag', { id: sample.id })} />
    </Flex>
  );
}

/** The samples: filtered, shown with their picture, made from camera pictures or uploads, removed. */
export function SamplesPage({ title }: { title?: string }) {
  const { t } = useTranslation('ailab');
  const navigate = useNavigate();
  const notice = useNotice();
  const samples = useSamples();
  const [filter, setFilter] = useState<SampleFilter>(NO_FILTER);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [picking, setPicking] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [chosen, setChosen] = useState<number[]>([]);
  const { ids: deleting, run: remove } = useRowMutation(useDeleteSample().mutate);
  const all = useMemo(() => samples.data ?? [], [samples.data]);
  const shown = useMemo(() => filterSamples(all, filter), [all, filter]);
  const tags = useMemo(() => sampleTags(all), [all]);

  const columns: TableColumnsType<Sample> = [
    {
      title: t('samples.picture'),
      key: 'picture',
      width: 88,
      render: (_, sample) => (
        <Link to={labelPath(sample.id)} aria-label={t('samples.labelSample', { id: sample.id })}>
          <img className="fw-lab-thumb" src={sampleImageSrc(sample)} alt="" loading="lazy" />
        </Link>
      ),
    },
    { title: t('samples.number'), dataIndex: 'id', width: 80, render: (id: number) => `#${id}` },
    { title: t('samples.deviceName'), dataIndex: 'deviceName', render: (name: string) => name || t('samples.uploaded') },
    { title: t('samples.sn'), dataIndex: 'sn', render: (sn: string) => sn || MISSING },
    { title: t('samples.sampleTime'), dataIndex: 'sampleTime', render: (time: number) => formatDateTime(time) },
    { title: t('samples.tag'), key: 'tag', render: (_, sample) => <TagCell sample={sample} /> },
    { title: t('samples.duration'), dataIndex: 'duration', render: (seconds: number) => (seconds > 0 ? t('samples.seconds', { count: seconds }) : MISSING) },
    { title: t('samples.location'), dataIndex: 'location', render: (location: string) => location || MISSING },
    {
      title: t('samples.labels'),
      key: 'labels',
      render: (_, sample) => (sample.labels.length ? t('samples.labelCount', { count: sample.labels.length }) : <Typography.Text type="secondary">{t('samples.unlabelled')}</Typography.Text>),
    },
    {
      title: t('actions'),
      key: 'actions',
      render: (_, sample) => (
        <Flex gap={4}>
          <Link to={labelPath(sample.id)}>
            <Button size="small" data-testid={`sample-label-${sample.id}`}>
              {t('samples.label')}
            </Button>
          </Link>
          <Popconfirm title={t('samples.deleteConfirm', { id: sample.id })} onConfirm={() => remove(sample.id, sample.id, t('deleted'))}>
            <Button size="small" type="text" danger icon={<DeleteOutlined />} loading={deleting.has(sample.id)} aria-label={t('samples.delete', { id: sample.id })} />
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <div className="fw-page fw-lab" data-testid="lab-samples">
      <LabHeader
        title={title}
        subtitle={t('samples.subtitle')}
        actions={
          <>
            <Button icon={<CameraOutlined />} onClick={() => setPicking(true)} data-testid="sample-from-camera">
              {t('samples.fromCamera')}
            </Button>
            <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="sample-upload">
              {t('samples.upload')}
            </Button>
          </>
        }
      />
      <Card variant="borderless" className="fw-lab__card">
        {samples.error ? <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('samples.loadFailed')} description={errorMessage(samples.error)} /> : null}
        <Flex gap={8} wrap className="fw-lab__toolbar" role="search" aria-label={t('samples.filters')}>
          <Input.Search
            allowClear
            placeholder={t('samples.deviceFilter')}
            aria-label={t('samples.deviceFilter')}
            style={{ width: 220 }}
            onSearch={(device) => setFilter((current) => ({ ...current, device }))}
            onChange={(event) => !event.target.value && setFilter((current) => ({ ...current, device: '' }))}
            data-testid="sample-filter-device"
          />
          <Select
            allowClear
            placeholder={t('samples.tagFilter')}
            aria-label={t('samples.tagFilter')}
            style={{ width: 160 }}
            value={filter.tag || undefined}
            onChange={(tag?: string) => setFilter((current) => ({ ...current, tag: tag ?? '' }))}
            options={tags.map((tag) => ({ value: tag, label: tag }))}
          />
          <DatePicker.RangePicker
            showTime
            value={range}
            aria-label={t('samples.timeFilter')}
            onChange={(value) => {
              setRange(value);
              setFilter((current) => ({ ...current, from: value?.[0]?.valueOf() ?? null, to: value?.[1]?.valueOf() ?? null }));
            }}
          />
          <Flex flex={1} justify="flex-end" align="center" gap={8}>
            {chosen.length > 0 ? <Typography.Text type="secondary">{t('samples.chosen', { count: chosen.length })}</Typography.Text> : null}
            <Button
              icon={<PlusOutlined />}
              disabled={chosen.length === 0}
              onClick={() => navigate(paths.modelService.sampleSets, { state: { sampleIds: chosen } })}
              data-testid="sample-make-set"
            >
              {t('samples.makeSet')}
            </Button>
          </Flex>
        </Flex>
        <Table<Sample>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={shown}
          loading={samples.isPending}
          rowSelection={{
            columnTitle: selectAllTitle,
            selectedRowKeys: chosen,
            onChange: (keys) => setChosen(keys as number[]),
            columnWidth: 40,
            getCheckboxProps: (sample) => ({ 'aria-label': t('samples.choose', { id: sample.id }) }),
          }}
          pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [10, 20, 50], showTotal: (total) => t('total', { count: total }) }}
          locale={{ emptyText: all.length === 0 ? t('samples.empty') : t('samples.noMatch') }}
          scroll={{ x: 'max-content' }}
          data-testid="sample-table"
        />
      </Card>
      <FromCameraModal
        open={picking}
        onClose={() => setPicking(false)}
        onCreated={(sample) => {
          setPicking(false);
          navigate(labelPath(sample.id));
        }}
      />
      <UploadModal open={uploading} onClose={() => setUploading(false)} onUploaded={(sample) => notice.success(t('samples.uploadDone', { id: sample.id }))} />
    </div>
  );
}
