import { CheckCircleFilled } from '@ant-design/icons';
import { Button, Card, Flex, Form, Input, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { paths } from '@/config/paths';
import { useNotice } from '@/lib/notice';
import { useCreateChannel } from '../api/create-channel';
import { useChannel } from '../api/get-channel';
import { useResetChannelSecret } from '../api/reset-channel-secret';
import { useUpdateChannel } from '../api/update-channel';
import type { Channel, ChannelInput, CreatedChannel } from '../types';
import { CHANNEL_NAME_MAX_LENGTH, countUpTo, PUSH_URL_MAX_LENGTH, useChannelFormRules } from '../validation';
import { DevicePicker } from './device-picker';
import { SecretBox, SecretReset } from './secret-box';
import { showFieldError } from './server-field-error';
import './integration.css';

const FORM_FIELDS = ['name', 'url', 'deviceIds'] as const;

export interface ChannelEditorProps {
  /** The channel to edit; null for a new one. */
  id: number | null;
  /** Called after an edit was saved, or when the user leaves the form. */
  onDone: () => void;
}

/** Creates or edits a data-push channel. A new channel's signing secret is shown once, right here. */
export function ChannelEditor({ id, onDone }: ChannelEditorProps) {
  const channel = useChannel(id);
  const [created, setCreated] = useState<CreatedChannel | null>(null);

  if (created) return <ChannelCreated channel={created} />;
  if (id !== null && !channel.data) {
    return channel.error ? (
      <ServerErrorAlert error={channel.error} />
    ) : (
      <Flex justify="center" className="fw-push-loading">
        <Spin />
      </Flex>
    );
  }
  return (
    <Flex vertical gap={16}>
      <Card variant="borderless">
        <ChannelForm key={id ?? 'new'} channel={channel.data} onCreated={setCreated} onSaved={onDone} onCancel={onDone} />
      </Card>
      {id !== null && channel.data && <ChannelSecretReset channel={channel.data} />}
    </Flex>
  );
}

interface ChannelFormProps {
  channel?: Channel;
  onCreated: (channel: CreatedChannel) => void;
  onSaved: () => void;
  onCancel: () => void;
}

function ChannelForm({ channel, onCreated, onSaved, onCancel }: ChannelFormProps) {
  const { t } = useTranslation('integration');
  const { t: tc } = useTranslation();
  const notice = useNotice();
  const [form] = Form.useForm<ChannelInput>();
  const rules = useChannelFormRules();
  const create = useCreateChannel();
  const update = useUpdateChannel();
  const [serverError, setServerError] = useState<unknown>(null);

  const onError = (error: unknown) => {
    if (!showFieldError(form, error, FORM_FIELDS)) setServerError(error);
  };
  const submit = (values: ChannelInput) => {
    setServerError(null);
    const input = { name: values.name.trim(), url: values.url.trim(), deviceIds: values.deviceIds };
    if (channel) {
      update.mutate(
        { id: channel.id, ...input },
        {
          onSuccess: () => {
            notice.success(t('config.saved'));
            onSaved();
          },
          onError,
        },
      );
    } else {
      create.mutate(input, { onSuccess: onCreated, onError });
    }
  };

  return (
    <Form<ChannelInput>
      form={form}
      name="channel"
      layout="vertical"
      initialValues={channel ? { name: channel.name, url: channel.url, deviceIds: channel.deviceIds } : { name: '', url: '', deviceIds: [] }}
      onFinish={submit}
      scrollToFirstError={{ block: 'center' }}
      className="fw-push-form"
    >
      <Form.Item name="name" label={t('config.name')} rules={rules.name} required>
        <Input
          placeholder={t('config.namePlaceholder')}
          autoComplete="off"
          count={{ show: true, ...countUpTo(CHANNEL_NAME_MAX_LENGTH) }}
        />
      </Form.Item>
      <Form.Item name="url" label={t('config.url')} rules={rules.url} required extra={t('config.urlHint')}>
        <Input
          placeholder="https://example.com/fieldwatch/push"
          autoComplete="off"
          inputMode="url"
          spellCheck={false}
          count={countUpTo(PUSH_URL_MAX_LENGTH)}
        />
      </Form.Item>
      <Form.Item name="deviceIds" label={t('config.devices')} rules={rules.deviceIds} required extra={t('config.devicesHint')}>
        <DevicePicker />
      </Form.Item>
      <ServerErrorAlert error={serverError} className="fw-push-form__error" />
      <Flex gap={8} justify="flex-end">
        <Button onClick={onCancel}>{tc('actions.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending} data-testid="channel-save">
          {channel ? t('config.save') : t('config.create')}
        </Button>
      </Flex>
    </Form>
  );
}

/** A channel just created: its secret, once, and where to go next. */
function ChannelCreated({ channel }: { channel: CreatedChannel }) {
  const { t } = useTranslation('integration');
  return (
    <Card variant="borderless" data-testid="channel-created">
      <Flex vertical gap={16}>
        <Flex align="center" gap={12}>
          <CheckCircleFilled className="fw-push-created__icon" />
          <div>
            <Typography.Title level={4} className="fw-push-created__title">
              {t('config.createdTitle', { name: channel.name })}
            </Typography.Title>
            <Typography.Text type="secondary">{t('config.createdBody', { url: channel.url })}</Typography.Text>
          </div>
        </Flex>
        <SecretBox secret={channel.secret} label={t('secret.channelLabel')} hint={t('secret.channelHint')} />
        <Flex gap={8} wrap>
          <Link to={paths.dataPush.root}>
            <Button type="primary">{t('config.toChannels')}</Button>
          </Link>
          <Link to={`${paths.dataPush.log}?channelId=${channel.id}`}>
            <Button>{t('config.toLog')}</Button>
          </Link>
          <Link to={`${paths.dataPush.help}?id=${channel.id}`}>
            <Button>{t('config.toHelp')}</Button>
          </Link>
        </Flex>
      </Flex>
    </Card>
  );
}

/** Replaces a channel's secret when the old one is lost or leaked. */
function ChannelSecretReset({ channel }: { channel: Channel }) {
  const { t } = useTranslation('integration');
  const reset = useResetChannelSecret();
  return (
    <Card variant="borderless" title={t('secret.channelLabel')}>
      <SecretReset
        secret={reset.data?.secret}
        label={t('secret.channelLabel')}
        hint={t('secret.channelHint')}
        pending={reset.isPending}
        error={reset.error}
        onReset={() => reset.mutate(channel.id)}
      />
    </Card>
  );
}
