import { DeleteOutlined, DownloadOutlined, ExperimentOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Popconfirm, Table, Tag, Tooltip, Typography, Upload, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import { saveFile } from '@/lib/save-file';
import { useIdSet } from '@/lib/use-id-set';
import { useRowMutation } from '@/lib/use-row-mutation';
import { BUILTIN_COUNTER_FILE, useDeleteModel, useDownloadBuiltin, useDownloadModel, useModels, useUploadModel } from '../api/models';
import { formatBytes } from '../lib/model-view';
import type { Model } from '../types';
import { LabHeader } from './lab-header';
import { ModelTestDrawer } from './model-test-drawer';

/** The models: .l5d packages uploaded (each refusal shown with the server's reason), tested on samples, downloaded, removed. */
export function ModelsPage({ title }: { title?: string }) {
  const { t } = useTranslation('ailab');
  const notice = useNotice();
  const models = useModels();
  const upload = useUploadModel();
  const builtin = useDownloadBuiltin();
  const downloader = useDownloadModel();
  const downloading = useIdSet();
  const { ids: deleting, run: remove } = useRowMutation(useDeleteModel().mutate);
  const [failure, setFailure] = useState<{ name: string; message: string } | null>(null);
  const [testing, setTesting] = useState<Model | null>(null);

  const getBuiltin = () =>
    builtin.mutate(undefined, {
      onSuccess: ({ blob, filename }) => saveFile(blob, filename ?? BUILTIN_COUNTER_FILE),
      onError: (error) => notice.error(`${t('downloadFailed')} (${errorMessage(error)})`),
    });

  const onDownload = (model: Model) => {
    downloading.add(model.id);
    downloader.mutate(model, {
      onSuccess: ({ blob, filename }) => saveFile(blob, filename ?? model.fileName),
      onError: (error) => notice.error(`${t('downloadFailed')} (${errorMessage(error)})`),
      onSettled: () => downloading.remove(model.id),
    });
  };

  const columns: TableColumnsType<Model> = [
    {
      title: t('models.name'),
      dataIndex: 'name',
      render: (name: string, model) => (
        <div className="fw-model-name">
          <Typography.Text strong>{name}</Typography.Text>
          {model.manifest.description ? (
            <Typography.Text type="secondary" className="fw-model-name__description" ellipsis={{ tooltip: model.manifest.description }}>
              {model.manifest.description}
            </Typography.Text>
          ) : null}
        </div>
      ),
    },
    { title: t('models.version'), dataIndex: 'version', render: (version: string) => <Tag>{version}</Tag> },
    {
      title: t('models.kind'),
      key: 'kind',
      render: (_, model) => (
        <Flex vertical>
          <span>{t(`models.kinds.${model.kind}`)}</span>
          <Typography.Text type="secondary" className="fw-model-meta">
            {t('models.input', { width: model.manifest.input?.width, height: model.manifest.input?.height })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('models.elements'),
      key: 'elements',
      render: (_, model) => (
        <Flex gap={4} wrap>
          {model.manifest.elements.map((element) => (
            <Tag key={element.identifier} title={element.identifier}>
              {element.unit ? `${element.name} (${element.unit})` : element.name}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('models.fileSize'),
      key: 'size',
      render: (_, model) => (
        <Flex vertical align="flex-start">
          <span className="fw-model-meta--num">{formatBytes(model.size)}</span>
          <Tooltip title={<span data-testid="model-operators-list">{model.operators.join(', ')}</span>}>
            <Typography.Text type="secondary" className="fw-model-meta fw-model-ops" tabIndex={0} data-testid={`model-operators-${model.id}`}>
              {t('models.operatorCount', { count: model.operators.length })}
            </Typography.Text>
          </Tooltip>
        </Flex>
      ),
    },
    { title: t('models.createTime'), dataIndex: 'createTime', render: (time: number) => formatDateTime(time) },
    {
      title: t('actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, model) => (
        <Flex gap={4}>
          <Button size="small" icon={<ExperimentOutlined />} onClick={() => setTesting(model)} data-testid={`model-test-${model.id}`}>
            {t('models.test')}
          </Button>
          <Tooltip title={t('models.download')}>
            <Button
              size="small"
              type="text"
              icon={<DownloadOutlined />}
              loading={downloading.ids.has(model.id)}
              onClick={() => onDownload(model)}
              aria-label={t('models.downloadOf', { name: model.name, version: model.version })}
            />
          </Tooltip>
          <Popconfirm title={t('models.deleteConfirm', { name: model.name, version: model.version })} onConfirm={() => remove(model.id, model.id, t('deleted'))}>
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              loading={deleting.has(model.id)}
              aria-label={t('models.delete', { name: model.name, version: model.version })}
              data-testid={`model-delete-${model.id}`}
            />
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <div className="fw-page fw-lab" data-testid="lab-models">
      <LabHeader
        title={title}
        subtitle={t('models.subtitle')}
        actions={
          <>
            <Tooltip title={t('models.builtinHint')}>
              <Button icon={<DownloadOutlined />} loading={builtin.isPending} onClick={getBuiltin} data-testid="model-builtin">
                {t('models.builtin')}
              </Button>
            </Tooltip>
            <Upload
              accept=".l5d"
              showUploadList={false}
              disabled={upload.isPending}
              customRequest={({ file, onSuccess, onError }) => {
                const picked = file as File;
                setFailure(null);
                upload.mutate(picked, {
                  onSuccess: (model) => {
                    onSuccess?.(model);
                    notice.success(t('models.uploaded', { name: model.name, version: model.version }));
                  },
                  onError: (error) => {
                    setFailure({ name: picked.name, message: errorMessage(error) });
                    onError?.(error);
                  },
                });
              }}
            >
              <Button type="primary" icon={<UploadOutlined />} loading={upload.isPending} data-testid="model-upload">
                {t('models.upload')}
              </Button>
            </Upload>
          </>
        }
      />
      <Card variant="borderless" className="fw-lab__card">
        {failure ? (
          <Alert
            type="error"
            showIcon
            closable
            role="alert"
            className="fw-lab__toolbar"
            title={t('uploadFailed')}
            description={`${failure.name}: ${failure.message}`}
            onClose={() => setFailure(null)}
            data-testid="model-upload-error"
          />
        ) : null}
        {models.error ? <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('models.loadFailed')} description={errorMessage(models.error)} /> : null}
        <Table<Model>
          rowKey="id"
          columns={columns}
          dataSource={models.data ?? []}
          loading={models.isPending}
          pagination={{ defaultPageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: t('models.empty') }}
          scroll={{ x: 'max-content' }}
          data-testid="model-table"
        />
        <Typography.Paragraph type="secondary" className="fw-model-note">
          {t('models.packageNote')}
        </Typography.Paragraph>
      </Card>
      <ModelTestDrawer model={testing} onClose={() => setTesting(null)} />
    </div>
  );
}
