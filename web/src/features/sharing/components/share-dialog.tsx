import { CloseOutlined, CopyOutlined, FieldTimeOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Flex, Form, Input, Modal, QRCode, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useCopy } from '@/lib/use-copy';
import { useCreateGrantLink } from '../api/create-grant-link';
import { useCreateTransferLink } from '../api/create-transfer-link';
import { PURVIEW_KEYS, type LinkKind, type PurviewKey, type ShareDevice, type ShareLink } from '../types';
import { PurviewTags } from './purview-tags';
import './sharing.css';
import { farmTime } from '@/lib/farm-time';

export interface ShareDialogProps {
  open: boolean;
  /** The devices to share, preselected; the owner may drop some before creating the link. */
  devices: ShareDevice[];
  onClose: () => void;
  /** A grant shares the devices; a transfer gives them away. */
  mode?: LinkKind;
}

interface ShareFormValues {
  devices: ShareDevice[];
  rights: PurviewKey[];
}

/** The devices chosen for the link, each removable. */
function DevicePicks({ value = [], onChange }: { value?: ShareDevice[]; onChange?: (next: ShareDevice[]) => void }) {
  const { t } = useTranslation('sharing');
  if (value.length === 0) {
    return <Typography.Text type="secondary">{t('dialog.noDevices')}</Typography.Text>;
  }
  return (
    <ul className="fw-share-picks" data-testid="share-devices">
      {value.map((device) => (
        <li key={device.poiId} className="fw-share-pick">
          <span className="fw-share-pick__name">{device.name}</span>
          {device.sn && <span className="fw-share-pick__sn">{device.sn}</span>}
          <Tooltip title={t('dialog.remove')}>
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined />}
              aria-label={t('dialog.removeDevice', { name: device.name })}
              onClick={() => onChange?.(value.filter((item) => item.poiId !== device.poiId))}
            />
          </Tooltip>
        </li>
      ))}
    </ul>
  );
}

function TransferWarning() {
  const { t } = useTranslation('sharing');
  return (
    <Alert
      type="warning"
      showIcon
      className="fw-share-warning"
      title={t('dialog.transferWarning.title')}
      description={
        <ul className="fw-share-warning__list">
          <li>{t('dialog.transferWarning.owner')}</li>
          <li>{t('dialog.transferWarning.grants')}</li>
          <li>{t('dialog.transferWarning.tags')}</li>
          <li>{t('dialog.transferWarning.kept')}</li>
        </ul>
      }
    />
  );
}

/** The link once created: copy it, or let the other person scan it. */
function LinkReady({ link }: { link: ShareLink }) {
  const { t } = useTranslation('sharing');
  const copy = useCopy({ copied: t('dialog.copied'), failed: t('dialog.copyFailed') });
  const transfer = link.kind === 'transfer';
  return (
    <Flex vertical gap={16} data-testid="share-link-ready">
      <Alert
        type="success"
        showIcon
        title={t(transfer ? 'dialog.transferReady' : 'dialog.grantReady')}
        description={t('dialog.sendHint')}
      />
      <Space.Compact block>
        <Input readOnly value={link.link} aria-label={t('dialog.link')} data-testid="share-link" onFocus={(event) => event.target.select()} />
        <Button type="primary" icon={<CopyOutlined />} onClick={() => void copy(link.link)}>
          {t('dialog.copy')}
        </Button>
      </Space.Compact>
      <Typography.Text type="secondary" className="fw-share-expiry" data-testid="share-expiry">
        <FieldTimeOutlined /> {t('dialog.expiry', { time: farmTime(link.expireAt).format('HH:mm') })}
      </Typography.Text>
      <div className="fw-share-qr">
        <QRCode value={link.link} type="svg" size={152} color="#000000" bgColor="#ffffff" bordered={false} className="fw-share-qr__code" />
        <div className="fw-share-qr__summary">
          <Typography.Text strong>{t('dialog.devicesCount', { count: link.devices.length })}</Typography.Text>
          <ul className="fw-share-qr__devices">
            {link.devices.map((device) => (
              <li key={device.poiId}>
                {device.name}
                <Typography.Text type="secondary"> · {device.typeName || device.sn}</Typography.Text>
              </li>
            ))}
          </ul>
          <div>{transfer ? <Typography.Text type="warning">{t('rights.transfer')}</Typography.Text> : <PurviewTags purview={link.purview} />}</div>
          <Typography.Text type="secondary" className="fw-share-qr__hint">
            {t('dialog.scanHint')}
          </Typography.Text>
        </div>
      </div>
    </Flex>
  );
}

function ShareForm({ devices, mode, onClose }: { devices: ShareDevice[]; mode: LinkKind; onClose: () => void }) {
  const { t } = useTranslation('sharing');
  const { t: tc } = useTranslation();
  const [form] = Form.useForm<ShareFormValues>();
  const grant = useCreateGrantLink();
  const transfer = useCreateTransferLink();
  const creating = mode === 'transfer' ? transfer : grant;
  const link = creating.data;

  const onFinish = ({ devices: picked, rights = [] }: ShareFormValues) => {
    const poiIds = picked.map((device) => device.poiId);
    if (mode === 'transfer') transfer.mutate({ poiIds });
    else {
      grant.mutate({
        poiIds,
        purview: { rename: rights.includes('rename'), settings: rights.includes('settings'), export: rights.includes('export') },
      });
    }
  };

  if (link) {
    return (
      <>
        <LinkReady link={link} />
        <Flex justify="flex-end" className="fw-share-footer">
          <Button type="primary" onClick={onClose}>
            {t('dialog.done')}
          </Button>
        </Flex>
      </>
    );
  }

  return (
    <Form<ShareFormValues>
      form={form}
      name={mode === 'transfer' ? 'transfer-devices' : 'share-devices'}
      layout="vertical"
      requiredMark={false}
      initialValues={{ devices, rights: [] }}
      onFinish={onFinish}
      onValuesChange={() => creating.isError && creating.reset()}
    >
      {mode === 'transfer' && <TransferWarning />}
      <Form.Item
        name="devices"
        label={t('dialog.devices')}
        rules={[
          {
            validator: (_, value: ShareDevice[] | undefined) =>
              value && value.length > 0 ? Promise.resolve() : Promise.reject(new Error(t('dialog.selectDevice'))),
          },
        ]}
      >
        <DevicePicks />
      </Form.Item>
      {mode === 'grant' && (
        <Form.Item name="rights" label={t('dialog.rights')} extra={t('dialog.readAlways')}>
          <Checkbox.Group className="fw-share-rights">
            {PURVIEW_KEYS.map((key) => (
              <Checkbox key={key} value={key}>
                <span className="fw-share-rights__name">{t(`rights.${key}`)}</span>
                <Typography.Text type="secondary" className="fw-share-rights__hint">
                  {t(`rights.hints.${key}`)}
                </Typography.Text>
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
      )}
      <ServerErrorAlert error={creating.error} className="fw-share-error" />
      <Flex justify="flex-end" gap={8} className="fw-share-footer">
        <Button onClick={onClose}>{tc('actions.cancel')}</Button>
        <Button type="primary" danger={mode === 'transfer'} htmlType="submit" loading={creating.isPending}>
          {t(mode === 'transfer' ? 'dialog.createTransferLink' : 'dialog.createLink')}
        </Button>
      </Flex>
    </Form>
  );
}

/**
 * Creates a share or transfer link for some of the owner's devices and shows it with a QR code.
 * The link is good for 30 minutes and one acceptance.
 */
export function ShareDialog({ open, devices, onClose, mode = 'grant' }: ShareDialogProps) {
  const { t } = useTranslation('sharing');
  // Callers often drop the mode as they close; the closing dialog keeps its title meanwhile.
  const [shownMode, setShownMode] = useState(mode);
  if (open && shownMode !== mode) setShownMode(mode);
  return (
    <Modal
      open={open}
      title={t(shownMode === 'transfer' ? 'dialog.transferTitle' : 'dialog.grantTitle')}
      onCancel={onClose}
      footer={null}
      width={560}
      destroyOnHidden
    >
      <ShareForm devices={devices} mode={shownMode} onClose={onClose} />
    </Modal>
  );
}
