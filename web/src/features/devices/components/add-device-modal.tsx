import { Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { deviceDetailPath } from '@/lib/detail-path';
import { LabelEntryForm } from './label-entry-form';
import { LabelPanel } from './label-panel';

/** The device list's "Add device": type what the label says, then add the device under a name. */
export function AddDeviceModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('devices');
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  return (
    <Modal
      open={open}
      title={t('add.title')}
      footer={null}
      onCancel={onClose}
      afterClose={() => setCode('')}
      destroyOnHidden
      data-testid="add-device-modal"
    >
      {code ? (
        <LabelPanel
          code={code}
          links={{
            openDevice: (device) => {
              onClose();
              void navigate(deviceDetailPath(device) ?? paths.devices);
            },
            toDevices: onClose,
            again: () => setCode(''),
          }}
        />
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('add.intro')}</Typography.Paragraph>
          <LabelEntryForm onSubmit={setCode} />
        </>
      )}
    </Modal>
  );
}
