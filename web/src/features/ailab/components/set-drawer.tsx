import { Alert, Button, Drawer, Flex, Form, Input, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectAllTitle } from '@/components/select-all-title';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { isApiError } from '@/lib/api-client';
import { formatDateTime, MISSING } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import { sampleImageSrc, useSamples } from '../api/samples';
import { useCreateSet, useUpdateSet } from '../api/sets';
import type { Sample, SampleSet } from '../types';

export type SetTarget = { mode: 'new'; sampleIds: number[] } | { mode: 'edit'; set: SampleSet } | null;

/** Creates a sample set, or edits a version's description and samples (a used one is kept: the edit is the next version). */
export function SetDrawer({ target, onClose }: { target: SetTarget; onClose: () => void }) {
  const { t } = useTranslation('ailab');
  return (
    <Drawer
      open={target !== null}
      onClose={onClose}
      title={target?.mode === 'edit' ? t('sets.editTitle', { name: target.set.name, version: target.set.version }) : t('sets.new')}
      size="large"
      destroyOnHidden
    >
      {target ? <SetForm key={target.mode === 'edit' ? target.set.id : 'new'} target={target} onClose={onClose} /> : null}
    </Drawer>
  );
}

function SetForm({ target, onClose }: { target: Exclude<SetTarget, null>; onClose: () => void }) {
  const { t } = useTranslation('ailab');
  const notice = useNotice();
  const samples = useSamples();
  const create = useCreateSet();
  const update = useUpdateSet();
  const editing = target.mode === 'edit' ? target.set : null;
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [sampleIds, setSampleIds] = useState<number[]>(editing ? editing.sampleIds : target.mode === 'new' ? target.sampleIds : []);
  const [incomplete, setIncomplete] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const pending = create.isPending || update.isPending;
  const nameError = incomplete && !name.trim();
  const samplesError = incomplete && sampleIds.length === 0;
  const serverField = isApiError(error) ? error.field : undefined;

  const submit = () => {
    setError(null);
    if (!name.trim() || sampleIds.length === 0) {
      setIncomplete(true);
      return;
    }
    setIncomplete(false);
    if (editing) {
      update.mutate(
        { id: editing.id, description: description.trim(), sampleIds },
        {
          onSuccess: (saved) => {
            notice.success(saved && saved.version !== editing.version ? t('sets.savedAsVersion', { version: saved.version }) : t('saved'));
            onClose();
          },
          onError: setError,
        },
      );
    } else {
      create.mutate(
        { name: name.trim(), description: description.trim(), sampleIds },
        {
          onSuccess: () => {
            notice.success(t('sets.created'));
            onClose();
          },
          onError: setError,
        },
      );
    }
  };

  const columns: TableColumnsType<Sample> = [
    { title: t('samples.picture'), key: 'picture', width: 80, render: (_, sample) => <img className="fw-lab-thumb" src={sampleImageSrc(sample)} alt="" loading="lazy" /> },
    { title: t('samples.number'), dataIndex: 'id', render: (id: number) => `#${id}` },
    { title: t('samples.deviceName'), dataIndex: 'deviceName', render: (value: string) => value || t('samples.uploaded') },
    { title: t('samples.sampleTime'), dataIndex: 'sampleTime', render: (time: number) => formatDateTime(time) },
    { title: t('samples.tag'), dataIndex: 'tag', render: (tag: string) => tag || MISSING },
    { title: t('samples.labels'), key: 'labels', render: (_, sample) => sample.labels.length },
  ];

  return (
    <Form layout="vertical" onFinish={submit} data-testid="set-form">
      {editing?.used ? (
        <Alert type="info" showIcon className="fw-lab__toolbar" title={t('sets.usedNote', { version: editing.version, next: editing.version + 1 })} data-testid="set-used-note" />
      ) : null}
      {incomplete ? <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('sets.incomplete')} data-testid="set-incomplete" /> : null}
      {error && !serverField ? <ServerErrorAlert error={error} className="fw-lab__toolbar" /> : null}
      <Form.Item
        label={t('sets.name')}
        htmlFor="set-name"
        required
        validateStatus={nameError || serverField === 'name' ? 'error' : undefined}
        help={serverField === 'name' ? (error as Error).message : undefined}
      >
        <Input id="set-name" value={name} onChange={(event) => setName(event.target.value)} maxLength={64} disabled={editing !== null} showCount={!editing} data-testid="set-name" />
      </Form.Item>
      <Form.Item label={t('sets.description')} htmlFor="set-description">
        <Input.TextArea id="set-description" value={description} onChange={(event) => setDescription(event.target.value)} maxLength={500} autoSize={{ minRows: 2, maxRows: 5 }} data-testid="set-description" />
      </Form.Item>
      <Form.Item
        label={t('sets.samples', { count: sampleIds.length })}
        required
        validateStatus={samplesError || serverField === 'sampleIds' ? 'error' : undefined}
        help={serverField === 'sampleIds' ? (error as Error).message : undefined}
      >
        <Table<Sample>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={samples.data ?? []}
          loading={samples.isPending}
          rowSelection={{
            columnTitle: selectAllTitle,
            selectedRowKeys: sampleIds,
            onChange: (keys) => setSampleIds(keys as number[]),
            getCheckboxProps: (sample) => ({ 'aria-label': t('samples.choose', { id: sample.id }) }),
          }}
          pagination={{ defaultPageSize: 10, hideOnSinglePage: true }}
          locale={{ emptyText: t('samples.empty') }}
          scroll={{ x: 'max-content' }}
          data-testid="set-samples"
        />
      </Form.Item>
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Text type="secondary">{editing ? t('sets.versionNote') : ''}</Typography.Text>
        <Flex gap={8}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={pending} data-testid="set-submit">
            {editing ? t('save') : t('sets.create')}
          </Button>
        </Flex>
      </Flex>
    </Form>
  );
}
