import { DeleteOutlined, EyeInvisibleOutlined, EyeOutlined, SyncOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Descriptions, Flex, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { paths } from '@/config/paths';
import { useNotice } from '@/lib/notice';
import { useCredentials, useRotateKey, type DeviceCredentials } from '../api/device-credentials';
import { useRemoveDevice } from '../api/remove-device';
import type { DeviceInfo } from '../types';

function Code({ children }: { children: string }) {
  return (
    <Typography.Text code copyable className="fw-poi-access__code">
      {children}
    </Typography.Text>
  );
}

function CredentialList({ credentials }: { credentials: DeviceCredentials }) {
  const { t } = useTranslation('poi');
  const { mqttHost, mqttPort } = credentials;
  return (
    <Descriptions
      size="small"
      column={1}
      data-testid="poi-credentials"
      items={[
        { key: 'username', label: t('access.username'), children: <Code>{credentials.username}</Code> },
        { key: 'key', label: t('access.key'), children: <Code>{credentials.key}</Code> },
        {
          key: 'broker',
          label: t('access.broker'),
          children: mqttPort ? <Code>{`${mqttHost}:${mqttPort}`}</Code> : <Typography.Text type="secondary">{t('access.noBroker')}</Typography.Text>,
        },
        { key: 'topic', label: t('access.topic'), children: <Code>{credentials.topic}</Code> },
        { key: 'status', label: t('access.statusTopic'), children: <Code>{credentials.statusTopic}</Code> },
        { key: 'http', label: t('access.http'), children: <Code>{credentials.ingestUrl}</Code> },
        { key: 'label', label: t('access.label'), children: <Code>{credentials.labelCode}</Code> },
      ]}
    />
  );
}

/**
 * The owner's card of a device: its MQTT and HTTP credentials (loaded when asked for), a new key,
 * and removing the device from the account.
 */
export function DeviceAccessCard({ device }: { device: DeviceInfo }) {
  const { t } = useTranslation('poi');
  const { t: tc } = useTranslation();
  const { modal } = App.useApp();
  const notice = useNotice();
  const navigate = useNavigate();
  const [shown, setShown] = useState(false);
  const [rotated, setRotated] = useState(false);
  const credentials = useCredentials(device.id, shown);
  const rotate = useRotateKey(device.id, {
    onSuccess: () => {
      setShown(true);
      setRotated(true);
    },
  });
  const remove = useRemoveDevice(device.id, {
    onSuccess: () => {
      notice.success(t('access.removed', { name: device.name }));
      void navigate(paths.devices, { replace: true });
    },
  });

  const confirmRotate = () =>
    modal.confirm({
      title: t('access.rotateTitle', { name: device.name }),
      content: t('access.rotateContent'),
      okText: t('access.rotateOk'),
      cancelText: tc('actions.cancel'),
      onOk: () => rotate.mutateAsync().catch(() => undefined),
    });
  const confirmRemove = () =>
    modal.confirm({
      title: t('access.removeTitle', { name: device.name }),
      content: t('access.removeContent'),
      okText: t('access.removeOk'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-remove' } as ButtonProps,
      cancelText: tc('actions.cancel'),
      onOk: () => remove.mutateAsync().catch(() => undefined),
    });

  return (
    <Card variant="borderless" title={t('access.title')} className="fw-poi-section" data-testid="poi-access">
      <Flex vertical gap={16}>
        <Typography.Text type="secondary">{t('access.intro')}</Typography.Text>
        {rotated && <Alert type="success" showIcon title={t('access.rotated')} data-testid="key-rotated" />}
        {shown && credentials.data && <CredentialList credentials={credentials.data} />}
        <ServerErrorAlert error={credentials.error ?? rotate.error ?? remove.error} />
        <Flex gap={8} wrap>
          <Button
            icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
            loading={shown && credentials.isPending}
            onClick={() => setShown((s) => !s)}
            data-testid="show-credentials"
          >
            {shown ? t('access.hide') : t('access.show')}
          </Button>
          <Button icon={<SyncOutlined />} loading={rotate.isPending} onClick={confirmRotate} data-testid="rotate-key">
            {t('access.rotate')}
          </Button>
          <Button danger icon={<DeleteOutlined />} loading={remove.isPending} onClick={confirmRemove} data-testid="remove-device">
            {t('access.remove')}
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
