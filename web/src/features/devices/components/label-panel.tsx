import { CheckCircleFilled, InfoCircleFilled, LockFilled, QrcodeOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Flex, Form, Input, Result, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { isApiError } from '@/lib/api-client';
import { useLang } from '@/lib/use-lang';
import { useBindDevice } from '../api/bind-device';
import { useScanLabel, type LabelScan } from '../api/scan-label';
import type { Device } from '../types';
import { characterCount, DEVICE_NAME_MAX_LENGTH, useDeviceNameRules } from '../validation';
import './label.css';

/** Where the panel's buttons lead: the app's routes decide (desktop or phone screens). */
export interface LabelPanelLinks {
  /** Opens a device of the caller's. */
  openDevice: (device: { id: number; hashId: string; page: string }) => void;
  toDevices: () => void;
  /** Asks for another code. */
  again: () => void;
}

function Facts({ scan }: { scan: LabelScan }) {
  const { t } = useTranslation('devices');
  return (
    <Descriptions
      size="small"
      column={1}
      className="fw-label__facts"
      items={[
        { key: 'type', label: t('add.type'), children: `${scan.typeName} · ${scan.model}` },
        { key: 'sn', label: t('add.sn'), children: <Typography.Text copyable>{scan.sn}</Typography.Text> },
      ]}
    />
  );
}

function BindForm({ code, scan, onBound }: { code: string; scan: LabelScan; onBound: (device: Device) => void }) {
  const { t } = useTranslation('devices');
  const rules = useDeviceNameRules();
  const bind = useBindDevice({ onSuccess: onBound });
  return (
    <Form<{ name: string }>
      name="bind-device"
      layout="vertical"
      requiredMark={false}
      initialValues={{ name: '' }}
      onFinish={({ name }) => bind.mutate({ code, name: name.trim() })}
      onValuesChange={() => bind.isError && bind.reset()}
    >
      <Alert type="info" showIcon icon={<QrcodeOutlined />} title={t('add.free')} className="fw-label__state" />
      <Facts scan={scan} />
      <Form.Item name="name" label={t('add.nameLabel')} rules={rules}>
        <Input
          placeholder={t('add.namePlaceholder')}
          count={{ show: true, max: DEVICE_NAME_MAX_LENGTH, strategy: characterCount }}
          autoComplete="off"
          autoFocus
        />
      </Form.Item>
      <ServerErrorAlert error={bind.error} className="fw-label__error" />
      <Button type="primary" htmlType="submit" block size="large" loading={bind.isPending} data-testid="bind-device">
        {t('add.bind')}
      </Button>
    </Form>
  );
}

/**
 * What a device label says and what the caller can do with it: add a free device to their account
 * under a name, open their own, or learn that it is another account's (never whose).
 */
export function LabelPanel({ code, links }: { code: string; links: LabelPanelLinks }) {
  const { t } = useTranslation('devices');
  const lang = useLang();
  const scan = useScanLabel(code, lang);
  const [bound, setBound] = useState<Device | null>(null);

  if (bound) {
    return (
      <Result
        status="success"
        icon={<CheckCircleFilled />}
        title={t('add.bound', { name: bound.name })}
        subTitle={t('add.boundHint')}
        data-testid="label-bound"
        extra={[
          <Button key="open" type="primary" onClick={() => links.openDevice(bound)}>
            {t('add.openDevice')}
          </Button>,
          <Button key="list" onClick={links.toDevices}>
            {t('add.toDevices')}
          </Button>,
        ]}
      />
    );
  }
  if (scan.isPending) {
    return (
      <Flex justify="center" align="center" gap={12} className="fw-label__loading">
        <Spin /> <Typography.Text type="secondary">{t('add.loading')}</Typography.Text>
      </Flex>
    );
  }
  if (scan.isError) {
    if (isApiError(scan.error) && scan.error.status === 404) {
      return (
        <Result
          status="warning"
          title={t('add.notFound')}
          subTitle={t('add.notFoundHint')}
          data-testid="label-not-found"
          extra={<Button onClick={links.again}>{t('add.again')}</Button>}
        />
      );
    }
    return <ServerErrorAlert error={scan.error} />;
  }
  const data = scan.data;
  if (data.holder === 'mine') {
    return (
      <div data-testid="label-mine">
        <Alert type="success" showIcon icon={<InfoCircleFilled />} title={t('add.mine')} description={t('add.mineHint', { name: data.name })} className="fw-label__state" />
        <Facts scan={data} />
        <Flex gap={8} wrap>
          <Button type="primary" onClick={() => links.openDevice({ id: data.id ?? 0, hashId: data.hashId ?? '', page: data.page })}>
            {t('add.openDevice')}
          </Button>
          <Button onClick={links.again}>{t('add.again')}</Button>
        </Flex>
      </div>
    );
  }
  if (data.holder === 'other') {
    return (
      <div data-testid="label-other">
        <Alert type="warning" showIcon icon={<LockFilled />} title={t('add.other')} description={t('add.otherHint')} className="fw-label__state" />
        <Facts scan={data} />
        <Button onClick={links.again}>{t('add.again')}</Button>
      </div>
    );
  }
  if (data.slave) {
    return (
      <div data-testid="label-slave">
        <Alert type="warning" showIcon title={t('add.slave')} className="fw-label__state" />
        <Facts scan={data} />
        <Button onClick={links.again}>{t('add.again')}</Button>
      </div>
    );
  }
  return (
    <div data-testid="label-free">
      <BindForm code={code} scan={data} onBound={setBound} />
    </div>
  );
}
