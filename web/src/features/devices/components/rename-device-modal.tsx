import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useNotice } from '@/lib/notice';
import { useRenameDevice } from '../api/rename-device';
import { characterCount, DEVICE_NAME_MAX_LENGTH, useDeviceNameRules } from '../validation';

interface RenameDeviceModalProps {
  /** The device being renamed; null keeps the dialog closed. */
  device: { id: number; name: string } | null;
  onClose: () => void;
}

/** Renames a device, checking the name as the server does before sending it. */
export function RenameDeviceModal({ device, onClose }: RenameDeviceModalProps) {
  const { t } = useTranslation('devices');
  const { t: tc } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const rules = useDeviceNameRules();
  const notice = useNotice();
  const rename = useRenameDevice({
    onSuccess: () => {
      notice.success(t('rename.success'));
      onClose();
    },
  });

  return (
    <Modal
      open={device !== null}
      title={t('rename.title')}
      okText={t('rename.submit')}
      cancelText={tc('actions.cancel')}
      confirmLoading={rename.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={() => rename.reset()}
      destroyOnHidden
    >
      <Form
        form={form}
        name="rename-device"
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: device?.name ?? '' }}
        key={device?.id}
        onFinish={({ name }) => device && rename.mutate({ deviceId: device.id, name: name.trim() })}
        onValuesChange={() => rename.isError && rename.reset()}
      >
        <Form.Item name="name" label={t('rename.label')} rules={rules}>
          <Input
            placeholder={t('rename.placeholder')}
            count={{ show: true, max: DEVICE_NAME_MAX_LENGTH, strategy: characterCount }}
            autoFocus
            autoComplete="off"
          />
        </Form.Item>
        <ServerErrorAlert error={rename.error} />
      </Form>
    </Modal>
  );
}
