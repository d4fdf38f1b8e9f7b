import { DeleteOutlined, DownloadOutlined, EditOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Popconfirm, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import { saveFile } from '@/lib/save-file';
import { useIdSet } from '@/lib/use-id-set';
import { useRowMutation } from '@/lib/use-row-mutation';
import { useDeleteSet, useExportSet, useSets } from '../api/sets';
import type { SampleSet } from '../types';
import { LabHeader } from './lab-header';
import { SetDrawer, type SetTarget } from './set-drawer';

/** The sample sets, one row per version: created, edited (a used version is kept), exported, removed. */
export function SetsPage({ title }: { title?: string }) {
  const { t } = useTranslation('ailab');
  const notice = useNotice();
  const navigate = useNavigate();
  const location = useLocation();
  const sets = useSets();
  const exporter = useExportSet();
  const exporting = useIdSet();
  const { ids: deleting, run: remove } = useRowMutation(useDeleteSet().mutate);
  // Samples chosen on the samples page arrive here to become a new set.
  const handed = (location.state as { sampleIds?: number[] } | null)?.sampleIds;
  const [target, setTarget] = useState<SetTarget>(() => (handed?.length ? { mode: 'new', sampleIds: handed } : null));
  // Taken once: a reload or a way back does not open the form again.
  useEffect(() => {
    if (handed?.length) navigate('.', { replace: true, state: null });
  }, [handed, navigate]);

  const onExport = (set: SampleSet) => {
    exporting.add(set.id);
    exporter.mutate(set, {
      onSuccess: ({ blob, filename }) => {
        saveFile(blob, filename ?? `sample-set-${set.id}-v${set.version}.zip`);
        notice.success(t('sets.exported'));
      },
      onError: (error) => notice.error(`${t('downloadFailed')} (${errorMessage(error)})`),
      onSettled: () => exporting.remove(set.id),
    });
  };

  const columns: TableColumnsType<SampleSet> = [
    { title: t('sets.name'), dataIndex: 'name', render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
    {
      title: t('sets.version'),
      key: 'version',
      render: (_, set) => (
        <Flex gap={4} align="center">
          <Tag>v{set.version}</Tag>
          {set.used ? (
            <Tooltip title={t('sets.usedHint')}>
              <Tag icon={<LockOutlined />} color="gold" data-testid="set-used">
                {t('sets.used')}
              </Tag>
            </Tooltip>
          ) : null}
        </Flex>
      ),
    },
    { title: t('sets.description'), dataIndex: 'description', width: 260, render: (value: string) => value || '--', ellipsis: { showTitle: true } },
    { title: t('sets.rows'), dataIndex: 'rows', align: 'right' },
    { title: t('sets.columns'), dataIndex: 'columns', align: 'right' },
    { title: t('sets.createTime'), dataIndex: 'createTime', render: (time: number) => formatDateTime(time) },
    {
      title: t('actions'),
      key: 'actions',
      render: (_, set) => (
        <Flex gap={4}>
          <Button size="small" icon={<EditOutlined />} onClick={() => setTarget({ mode: 'edit', set })} data-testid={`set-edit-${set.id}`}>
            {t('sets.edit')}
          </Button>
          <Button size="small" icon={<DownloadOutlined />} loading={exporting.ids.has(set.id)} onClick={() => onExport(set)} data-testid={`set-export-${set.id}`}>
            {t('sets.export')}
          </Button>
          <Popconfirm title={t('sets.deleteConfirm', { name: set.name, version: set.version })} onConfirm={() => remove(set.id, set.id, t('deleted'))}>
            <Button size="small" type="text" danger icon={<DeleteOutlined />} loading={deleting.has(set.id)} aria-label={t('sets.delete', { name: set.name, version: set.version })} />
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <div className="fw-page fw-lab" data-testid="lab-sets">
      <LabHeader
        title={title}
        subtitle={t('sets.subtitle')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ mode: 'new', sampleIds: [] })} data-testid="set-new">
            {t('sets.new')}
          </Button>
        }
      />
      <Card variant="borderless" className="fw-lab__card">
        {sets.error ? <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('sets.loadFailed')} description={errorMessage(sets.error)} /> : null}
        <Table<SampleSet>
          rowKey="id"
          columns={columns}
          dataSource={sets.data ?? []}
          loading={sets.isPending}
          pagination={{ defaultPageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: t('sets.empty') }}
          scroll={{ x: 'max-content' }}
          data-testid="set-table"
        />
      </Card>
      <SetDrawer target={target} onClose={() => setTarget(null)} />
    </div>
  );
}
