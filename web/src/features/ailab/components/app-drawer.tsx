import { Alert, Button, Checkbox, Drawer, Flex, Form, Input, Radio, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useNotice } from '@/lib/notice';
import { useApp, useAppDevices, useApps, useCreateApp, useUpdateApp, type AppForm } from '../api/applications';
import { useModels } from '../api/models';
import type { AppType, LabApp } from '../types';

/** What the drawer edits: a new application, or the one with this id. */
export type AppTarget = { mode: 'new' } | { mode: 'edit'; id: number; name: string } | null;

export const APP_TYPES: readonly AppType[] = ['insect', 'seedling'];

/** The form's fields, as the server names them in its refusals. */
type Field = 'name' | 'mediumName' | 'description' | 'type' | 'modelId' | 'elements' | 'deviceIds';

/** Creates an application or edits one (read again from the server first); a refusal shows on the field it names. */
export function AppDrawer({ target, onClose }: { target: AppTarget; onClose: () => void }) {
  const { t } = useTranslation('ailab');
  return (
    <Drawer
      open={target !== null}
      onClose={onClose}
      title={target?.mode === 'edit' ? t('apps.editTitle', { name: target.name }) : t('apps.new')}
      size="large"
      destroyOnHidden
    >
      {target?.mode === 'edit' ? <EditApp id={target.id} onClose={onClose} /> : target ? <AppFormView app={null} onClose={onClose} /> : null}
    </Drawer>
  );
}

function EditApp({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation('ailab');
  const app = useApp(id);
  if (app.error) {
    return <Alert type="error" showIcon role="alert" title={t('apps.detailFailed')} description={errorMessage(app.error)} data-testid="app-detail-error" />;
  }
  if (!app.data) return <Skeleton active />;
  return <AppFormView key={app.data.id} app={app.data} onClose={onClose} />;
}

function AppFormView({ app, onClose }: { app: LabApp | null; onClose: () => void }) {
  const { t } = useTranslation('ailab');
  const notice = useNotice();
  const models = useModels();
  const apps = useApps();
  const create = useCreateApp();
  const update = useUpdateApp();
  const [name, setName] = useState(app?.name ?? '');
  const [mediumName, setMediumName] = useState(app?.mediumName ?? '');
  const [description, setDescription] = useState(app?.description ?? '');
  const [type, setType] = useState<AppType>(app?.type ?? 'insect');
  const [modelId, setModelId] = useState<number | undefined>(app?.modelId);
  const [elements, setElements] = useState<string[]>(app?.elements.map((element) => element.identifier) ?? []);
  const [deviceIds, setDeviceIds] = useState<number[]>(app?.deviceIds ?? []);
  const [incomplete, setIncomplete] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const candidates = useAppDevices(type);
  const model = models.data?.find((m) => m.id === modelId);
  const serverField = isApiError(error) ? (error.field as Field | undefined) : undefined;
  const pending = create.isPending || update.isPending;

  const missing: Record<Field, boolean> = {
    name: !name.trim(),
    mediumName: false,
    description: false,
    type: false,
    modelId: modelId === undefined,
    elements: elements.length === 0,
    deviceIds: deviceIds.length === 0,
  };

  /** The props that mark a field: red when missing after a try, the server's message when it named the field. */
  const status = (field: Field) => ({
    validateStatus: (incomplete && missing[field]) || serverField === field ? ('error' as const) : undefined,
    help: serverField === field ? (error as Error).message : undefined,
  });

  const pickModel = (id: number) => {
    setModelId(id);
    // A model's elements are all reported until some are left out.
    setElements(models.data?.find((m) => m.id === id)?.manifest.elements.map((element) => element.identifier) ?? []);
  };

  const pickType = (next: AppType) => {
    setType(next);
    setDeviceIds([]);
  };

  const submit = () => {
    setError(null);
    if (Object.values(missing).some(Boolean)) {
      setIncomplete(true);
      return;
    }
    setIncomplete(false);
    const form: AppForm = {
      name: name.trim(),
      mediumName: mediumName.trim(),
      description: description.trim(),
      type,
      modelId: modelId!,
      elements: elements.map((identifier) => ({ identifier })),
      deviceIds,
    };
    const done = (message: string) => () => {
      notice.success(message);
      onClose();
    };
    if (app) update.mutate({ id: app.id, ...form }, { onSuccess: done(t('saved')), onError: setError });
    else create.mutate(form, { onSuccess: done(t('apps.created')), onError: setError });
  };

  const watchedNote = (watchedBy: number | null) => {
    if (watchedBy === null || watchedBy === app?.id) return null;
    return t('apps.watchedBy', { name: watcherName(watchedBy) });
  };
  // The candidates name the watching application by id; the list of applications has its name.
  const watcherName = (id: number) => apps.data?.find((other) => other.id === id)?.name ?? `#${id}`;

  return (
    <Form layout="vertical" onFinish={submit} data-testid="app-form">
      {app?.published ? <Alert type="info" showIcon className="fw-lab__toolbar" title={t('apps.publishedNote')} /> : null}
      {incomplete ? <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('apps.incomplete')} data-testid="app-incomplete" /> : null}
      {error && !serverField ? <ServerErrorAlert error={error} className="fw-lab__toolbar" /> : null}
      <Form.Item label={t('apps.name')} htmlFor="app-name" required {...status('name')}>
        <Input id="app-name" value={name} onChange={(event) => setName(event.target.value)} maxLength={32} showCount data-testid="app-name" />
      </Form.Item>
      <Form.Item label={t('apps.mediumName')} htmlFor="app-medium" extra={t('apps.mediumHint')} {...status('mediumName')}>
        <Input id="app-medium" value={mediumName} onChange={(event) => setMediumName(event.target.value)} maxLength={64} data-testid="app-medium" />
      </Form.Item>
      <Form.Item label={t('apps.description')} htmlFor="app-description" {...status('description')}>
        <Input.TextArea
          id="app-description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={500}
          autoSize={{ minRows: 2, maxRows: 5 }}
          data-testid="app-description"
        />
      </Form.Item>
      <Form.Item label={t('apps.type')} required {...status('type')}>
        <Radio.Group value={type} onChange={(event) => pickType(event.target.value as AppType)} optionType="button" aria-label={t('apps.type')} data-testid="app-type">
          {APP_TYPES.map((value) => (
            <Radio.Button key={value} value={value}>
              {t(`apps.types.${value}`)}
            </Radio.Button>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item label={t('apps.model')} htmlFor="app-model" required {...status('modelId')}>
        <Select
          id="app-model"
          value={modelId}
          onChange={pickModel}
          loading={models.isPending}
          placeholder={t('apps.modelPlaceholder')}
          notFoundContent={models.error ? errorMessage(models.error) : t('apps.noModels')}
          options={(models.data ?? []).map((m) => ({ value: m.id, label: `${m.name} ${m.version} · ${t(`models.kinds.${m.kind}`)}` }))}
          data-testid="app-model"
        />
      </Form.Item>
      <Form.Item label={t('apps.elements')} required {...status('elements')}>
        {model ? (
          <Checkbox.Group
            value={elements}
            onChange={(values) => setElements(values)}
            options={model.manifest.elements.map((element) => ({
              value: element.identifier,
              label: `${element.name}${element.unit ? ` (${element.unit})` : ''} · ${element.identifier}`,
            }))}
            data-testid="app-elements"
          />
        ) : (
          <Typography.Text type="secondary">{t('apps.elementsHint')}</Typography.Text>
        )}
      </Form.Item>
      <Form.Item label={t('apps.devices')} htmlFor="app-devices" required extra={t('apps.devicesHint')} {...status('deviceIds')}>
        <Select
          id="app-devices"
          mode="multiple"
          value={deviceIds}
          onChange={setDeviceIds}
          loading={candidates.isPending}
          placeholder={t('apps.devicesPlaceholder')}
          notFoundContent={candidates.error ? errorMessage(candidates.error) : t('apps.noDevices')}
          optionFilterProp="label"
          options={(candidates.data ?? []).map((device) => {
            const note = watchedNote(device.watchedBy);
            return { value: device.id, label: `${device.name} (${device.sn})${note ? ` · ${note}` : ''}` };
          })}
          data-testid="app-devices"
        />
      </Form.Item>
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={pending} data-testid="app-submit">
          {app ? t('save') : t('apps.create')}
        </Button>
      </Flex>
    </Form>
  );
}
