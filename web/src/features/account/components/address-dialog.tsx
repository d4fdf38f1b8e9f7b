import { Alert, Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useNotice } from '@/lib/notice';
import { sendBindCode, sendUnbindCode, useBindAddress, useUnbindAddress, type Channel } from '../api/bindings';
import type { Profile } from '../types';
import { useBindingRules } from '../validation';
import { useCodeSender } from './use-code-sender';

interface Fields {
  address: string;
  code: string;
}

export interface AddressDialogProps {
  channel: Channel;
  /** bind: a new address (also to change one); unbind: remove the bound one. */
  mode: 'bind' | 'unbind';
  profile: Profile;
  onClose: () => void;
}

/**
 * Binds an e-mail address or phone number, or removes one, after a code sent to it: the address,
 * "Get code" (then a countdown), the code, and the action.
 */
export function AddressDialog({ channel, mode, profile, onClose }: AddressDialogProps) {
  const { t } = useTranslation('account');
  const notice = useNotice();
  const rules = useBindingRules();
  const [form] = Form.useForm<Fields>();
  const current = channel === 'mobile' ? profile.phone : profile.mail;
  const sender = useCodeSender(() =>
    mode === 'bind' ? sendBindCode(channel, form.getFieldValue('address') as string) : sendUnbindCode(channel),
  );
  const done = (message: string) => {
    notice.success(message);
    onClose();
  };
  const bind = useBindAddress(() => done(t(`bindings.${channel}.bound`)));
  const unbind = useUnbindAddress(() => done(t(`bindings.${channel}.unbound`)));
  const action = mode === 'bind' ? bind : unbind;

  const getCode = async () => {
    if (mode === 'bind') {
      try {
        await form.validateFields(['address']);
      } catch {
        return;
      }
    }
    sender.mutation.mutate();
  };
  const submit = ({ code }: Fields) => {
    if (!sender.sent) return;
    action.mutate({ channel, code: code.trim(), ticket: sender.sent.ticket });
  };
  const title = t(`bindings.${channel}.${mode === 'bind' ? (current ? 'changeTitle' : 'bindTitle') : 'unbindTitle'}`);

  return (
    <Modal open title={title} onCancel={onClose} footer={null} destroyOnHidden width={460}>
      <Form<Fields>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        onValuesChange={(changed: Partial<Fields>) => {
          if (action.isError) action.reset();
          if ('address' in changed && sender.sent) sender.reset();
        }}
      >
        {mode === 'bind' ? (
          <Form.Item name="address" label={t(`bindings.${channel}.label`)} rules={rules[channel]}>
            <Input
              placeholder={t(`bindings.${channel}.placeholder`)}
              autoComplete={channel === 'mobile' ? 'tel' : 'email'}
              inputMode={channel === 'mobile' ? 'tel' : 'email'}
            />
          </Form.Item>
        ) : (
          <Typography.Paragraph>{t(`bindings.${channel}.unbindText`, { address: current })}</Typography.Paragraph>
        )}
        <Form.Item label={t('bindings.code')} required>
          <Space.Compact block>
            <Form.Item name="code" noStyle rules={rules.code}>
              <Input placeholder={t('bindings.codePlaceholder')} maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
            </Form.Item>
            <Button onClick={() => void getCode()} loading={sender.mutation.isPending} disabled={sender.wait > 0}>
              {sender.wait > 0 ? t('bindings.resendIn', { seconds: sender.wait }) : t(sender.sent ? 'bindings.resend' : 'bindings.getCode')}
            </Button>
          </Space.Compact>
        </Form.Item>
        {sender.sent ? (
          <Alert
            type="info"
            showIcon
            className="fw-form-note"
            title={t('bindings.codeSent', { address: sender.sent.address, minutes: Math.round(sender.sent.expiresIn / 60) })}
          />
        ) : null}
        <ServerErrorAlert error={sender.mutation.error} className="fw-form-note" />
        <ServerErrorAlert error={action.error} className="fw-form-note" />
        <Form.Item className="fw-form-submit">
          <Space>
            <Button onClick={onClose}>{t('bindings.cancel')}</Button>
            <Button type="primary" danger={mode === 'unbind'} htmlType="submit" loading={action.isPending} disabled={!sender.sent}>
              {t(mode === 'bind' ? 'bindings.confirmBind' : 'bindings.confirmUnbind')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Modal>
  );
}
