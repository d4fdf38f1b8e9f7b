import { DatePicker, Form, Input, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useNotice } from '@/lib/notice';
import { useProfile } from '../api/get-profile';
import { useUpdateProfile } from '../api/update-profile';
import { fromPicker, pickerToday, toPicker } from '@/lib/farm-time';

export const NAME_MAX_LENGTH = 16;
export const LOCATION_MAX_LENGTH = 64;

interface EditValues {
  name: string;
  location: string;
  installTime: Dayjs | null;
}

/** Counts characters as people see them, so a Chinese name or an emoji counts once. */
function characters(value: string): number {
  return Array.from(value).length;
}

export function useNameRules() {
  const { t } = useTranslation('poi');
  return [
    { required: true, whitespace: true, message: t('edit.nameRequired') },
    {
      validator: (_rule: unknown, value: unknown) =>
        typeof value === 'string' && characters(value.trim()) > NAME_MAX_LENGTH
          ? Promise.reject(new Error(t('edit.nameTooLong', { max: NAME_MAX_LENGTH })))
          : Promise.resolve(),
    },
  ];
}

/** Name, place description and install date; the coordinates stay as the device reported them. */
export function EditDeviceModal({ deviceId, open, onClose }: { deviceId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('poi');
  const notice = useNotice();
  const [form] = Form.useForm<EditValues>();
  const profile = useProfile(deviceId, open);
  const update = useUpdateProfile(deviceId, {
    onSuccess: () => {
      notice.success(t('edit.saved'));
      onClose();
    },
  });
  const nameRules = useNameRules();
  const { reset } = update;

  useEffect(() => {
    if (open && profile.data) {
      form.setFieldsValue({
        name: profile.data.name,
        location: profile.data.location,
        installTime: profile.data.installTime ? toPicker(profile.data.installTime) : null,
      });
    }
    if (!open) reset();
  }, [open, profile.data, form, reset]);

  const save = (values: EditValues) => {
    if (!profile.data) return;
    update.mutate({
      ...profile.data,
      name: values.name.trim(),
      location: (values.location ?? '').trim(),
      installTime: values.installTime ? fromPicker(values.installTime.startOf('day')).valueOf() : null,
    });
  };

  return (
    <Modal
      open={open}
      title={t('edit.title')}
      okText={t('edit.save')}
      cancelText={t('cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={update.isPending}
      okButtonProps={{ disabled: !profile.data }}
    >
      <Form<EditValues> form={form} name="poi-edit" layout="vertical" requiredMark={false} onFinish={save}>
        <Form.Item name="name" label={t('edit.name')} rules={nameRules}>
          {/* Counted as saved: trimmed, one per character as people see them. */}
          <Input
            count={{ show: true, max: NAME_MAX_LENGTH, strategy: (text) => characters(text.trim()) }}
            placeholder={t('edit.namePlaceholder')}
          />
        </Form.Item>
        <Form.Item
          name="location"
          label={t('edit.location')}
          rules={[{ max: LOCATION_MAX_LENGTH, message: t('edit.locationTooLong', { max: LOCATION_MAX_LENGTH }) }]}
        >
          <Input maxLength={LOCATION_MAX_LENGTH} placeholder={t('edit.locationPlaceholder')} />
        </Form.Item>
        <Form.Item name="installTime" label={t('edit.installTime')}>
          <DatePicker className="fw-poi-full" disabledDate={(current) => current.isAfter(pickerToday().endOf('day'))} />
        </Form.Item>
      </Form>
      <ServerErrorAlert error={update.error ?? profile.error} />
    </Modal>
  );
}
