import { CheckCircleFilled } from '@ant-design/icons';
import { Button, Divider, Drawer, Flex, Form, Input, Radio, Spin, Typography, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useNotice } from '@/lib/notice';
import { useCreateApp } from '../api/create-app';
import { useApp } from '../api/get-app';
import { usePublishApp } from '../api/publish-app';
import { useResetAppSecret } from '../api/reset-app-secret';
import { useUpdateApp } from '../api/update-app';
import type { AppInput, CreatedApp, OpenApp } from '../types';
import { APP_NAME_MAX_LENGTH, countUpTo, PUSH_URL_MAX_LENGTH, useAppFormRules } from '../validation';
import { DevicePicker } from './device-picker';
import { SecretBox, SecretReset } from './secret-box';
import { showFieldError } from './server-field-error';
import './integration.css';

const FORM_FIELDS = ['name', 'pushUrl', 'range', 'deviceIds'] as const;

export interface AppDrawerProps {
  /** 'new' for a new application, an id to edit one, null while closed. */
  target: number | 'new' | null;
  onClose: () => void;
}

/** Creates or edits an open-API application; a new one's secret is shown here, once. */
export function AppDrawer({ target, onClose }: AppDrawerProps) {
  const { t } = useTranslation('integration');
  const { t: tc } = useTranslation();
  const notice = useNotice();
  const editingId = typeof target === 'number' ? target : null;
  const app = useApp(editingId);
  const [form] = Form.useForm<AppInput>();
  const [created, setCreated] = useState<CreatedApp | null>(null);
  const [serverError, setServerError] = useState<unknown>(null);
  const create = useCreateApp();
  const update = useUpdateApp();
  const ready = target === 'new' || app.data !== undefined;

  const onError = (error: unknown) => {
    if (!showFieldError(form, error, FORM_FIELDS)) setServerError(error);
  };
  const submit = (values: AppInput) => {
    setServerError(null);
    const input: AppInput = {
      name: values.name.trim(),
      pushUrl: (values.pushUrl ?? '').trim(),
      range: values.range,
      deviceIds: values.range === 'devices' ? (values.deviceIds ?? []) : [],
    };
    if (editingId !== null) {
      update.mutate(
        { id: editingId, app: input },
        {
          onSuccess: () => {
            notice.success(t('apps.saved'));
            onClose();
          },
          onError,
        },
      );
    } else {
      create.mutate(input, { onSuccess: setCreated, onError });
    }
  };

  return (
    <Drawer
      open={target !== null}
      onClose={onClose}
      afterOpenChange={(open) => {
        if (!open) {
          setCreated(null);
          setServerError(null);
          create.reset();
          update.reset();
        }
      }}
      title={created ? t('apps.createdTitle') : editingId === null ? t('apps.newTitle') : t('apps.editTitle')}
      size={720}
      destroyOnHidden
      className="fw-app-drawer"
      footer={
        created ? (
          <Flex justify="flex-end">
            <Button type="primary" onClick={onClose} data-testid="app-done">
              {t('apps.done')}
            </Button>
          </Flex>
        ) : (
          <Flex justify="flex-end" gap={8}>
            <Button onClick={onClose}>{tc('actions.cancel')}</Button>
            <Button type="primary" loading={create.isPending || update.isPending} disabled={!ready} onClick={() => form.submit()} data-testid="app-save">
              {editingId === null ? t('apps.create') : t('apps.save')}
            </Button>
          </Flex>
        )
      }
    >
      {target === null ? null : created ? (
        <AppCreated app={created} />
      ) : ready ? (
        <>
          <AppForm key={editingId ?? 'new'} form={form} app={editingId === null ? undefined : app.data} onSubmit={submit} />
          <ServerErrorAlert error={serverError} />
          {editingId !== null && app.data && <AppSecretReset app={app.data} />}
        </>
      ) : app.error ? (
        <ServerErrorAlert error={app.error} />
      ) : (
        <Flex justify="center" className="fw-push-loading">
          <Spin />
        </Flex>
      )}
    </Drawer>
  );
}

function AppForm({ form, app, onSubmit }: { form: FormInstance<AppInput>; app?: OpenApp; onSubmit: (values: AppInput) => void }) {
  const { t } = useTranslation('integration');
  const rules = useAppFormRules();
  const range = Form.useWatch('range', form);
  return (
    <Form<AppInput>
      form={form}
      name="app"
      layout="vertical"
      initialValues={app ? { name: app.name, pushUrl: app.pushUrl, range: app.range, deviceIds: app.deviceIds } : { name: '', pushUrl: '', range: 'all', deviceIds: [] }}
      onFinish={() => onSubmit(form.getFieldsValue(true) as AppInput)}
      scrollToFirstError={{ block: 'center' }}
      className="fw-push-form"
    >
      <Form.Item name="name" label={t('apps.name')} rules={rules.name} required>
        <Input
          placeholder={t('apps.namePlaceholder')}
          autoComplete="off"
          count={{ show: true, ...countUpTo(APP_NAME_MAX_LENGTH) }}
        />
      </Form.Item>
      <Form.Item name="pushUrl" label={t('apps.pushUrl')} rules={rules.pushUrl} extra={t('apps.pushUrlHint')}>
        <Input
          placeholder="https://example.com/fieldwatch/push"
          autoComplete="off"
          spellCheck={false}
          count={countUpTo(PUSH_URL_MAX_LENGTH)}
        />
      </Form.Item>
      <Form.Item name="range" label={t('apps.range')}>
        <Radio.Group
          options={[
            { value: 'all', label: t('apps.rangeAllOption') },
            { value: 'devices', label: t('apps.rangeDevicesOption') },
          ]}
        />
      </Form.Item>
      {range === 'devices' && (
        <Form.Item name="deviceIds" label={t('apps.devices')} rules={rules.deviceIds} required>
          <DevicePicker />
        </Form.Item>
      )}
    </Form>
  );
}

function AppCreated({ app }: { app: CreatedApp }) {
  const { t } = useTranslation('integration');
  return (
    <Flex vertical gap={16} data-testid="app-created">
      <Flex align="center" gap={12}>
        <CheckCircleFilled className="fw-push-created__icon" />
        <Typography.Text strong>{t('apps.createdBody', { name: app.name })}</Typography.Text>
      </Flex>
      <div>
        <Typography.Text type="secondary">{t('apps.columns.appKey')}</Typography.Text>
        <div>
          <Typography.Text className="fw-mono" copyable data-testid="created-app-key">
            {app.appKey}
          </Typography.Text>
        </div>
      </div>
      <SecretBox secret={app.appSecret} label={t('secret.appLabel')} hint={t('secret.appHint')} />
      {!app.published && <PublishNow app={app} />}
    </Flex>
  );
}

/** A new application's key is refused until it is published: offer that right away. */
function PublishNow({ app }: { app: OpenApp }) {
  const { t } = useTranslation('integration');
  const publish = usePublishApp();
  if (publish.isSuccess) return <Typography.Text type="success">{t('apps.publishedOn')}</Typography.Text>;
  return (
    <Flex vertical gap={8} align="flex-start">
      <Typography.Text type="secondary">{t('apps.publishNext')}</Typography.Text>
      <Button onClick={() => publish.mutate({ id: app.id, published: true })} loading={publish.isPending} data-testid="app-publish-now">
        {t('apps.publishNow')}
      </Button>
      <ServerErrorAlert error={publish.error} />
    </Flex>
  );
}

function AppSecretReset({ app }: { app: OpenApp }) {
  const { t } = useTranslation('integration');
  const reset = useResetAppSecret();
  return (
    <>
      <Divider />
      <Typography.Title level={5}>{t('secret.appLabel')}</Typography.Title>
      <SecretReset
        secret={reset.data?.appSecret}
        label={t('secret.appLabel')}
        hint={t('secret.appHint')}
        pending={reset.isPending}
        error={reset.error}
        onReset={() => reset.mutate(app.id)}
      />
    </>
  );
}
