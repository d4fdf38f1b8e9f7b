import { Alert, Button, Form, Input, Modal, Radio, Space } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { loginScanResult, resetPassword, sendResetCode, useSetProfile, wechatLoginQR, type Channel, type LoginMethods, type ScanResult } from '../api/bindings';
import type { Profile } from '../types';
import { useAccountRules, useBindingRules } from '../validation';
import { useCodeSender } from './use-code-sender';
import { WeChatQR } from './wechat-qr';

interface ResetFields {
  username: string;
  channel: Channel;
  code: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * "Forgot password": the account number, where the code goes (its bound e-mail or phone), the
 * code, and the new password twice. Every session of the account ends with the reset.
 */
export function ForgotPasswordDialog({ methods, onClose }: { methods: LoginMethods; onClose: (resetFor?: string) => void }) {
  const { t } = useTranslation('account');
  const rules = useAccountRules();
  const bindingRules = useBindingRules();
  const [form] = Form.useForm<ResetFields>();
  const channels = (['email', 'mobile'] as const).filter((channel) => methods[channel]);
  const sender = useCodeSender(() =>
    sendResetCode(form.getFieldValue('channel') as Channel, (form.getFieldValue('username') as string).trim()),
  );
  const reset = useMutation({
    mutationFn: resetPassword,
    onSuccess: (_data, input) => onClose(input.username),
  });
  const getCode = async () => {
    try {
      await form.validateFields(['username', 'channel']);
    } catch {
      return;
    }
    sender.mutation.mutate();
  };
  const submit = (values: ResetFields) => {
    if (!sender.sent) return;
    reset.mutate({
      username: values.username.trim(),
      channel: values.channel,
      code: values.code.trim(),
      ticket: sender.sent.ticket,
      password: values.newPassword,
    });
  };

  return (
    <Modal open title={t('forgot.title')} onCancel={() => onClose()} footer={null} destroyOnHidden width={460}>
      {channels.length === 0 ? (
        <Alert type="info" showIcon title={t('forgot.unavailable')} />
      ) : (
        <Form<ResetFields>
          form={form}
          name="forgot-password"
          layout="vertical"
          requiredMark={false}
          initialValues={{ channel: channels[0] }}
          onFinish={submit}
          onValuesChange={(changed: Partial<ResetFields>) => {
            if (reset.isError) reset.reset();
            if (('username' in changed || 'channel' in changed) && sender.sent) sender.reset();
          }}
        >
          <Form.Item name="username" label={t('login.accountNumber')} rules={rules.accountNumber}>
            <Input placeholder={t('login.accountNumberPlaceholder')} autoComplete="username" />
          </Form.Item>
          <Form.Item name="channel" label={t('forgot.channel')}>
            <Radio.Group
              options={channels.map((channel) => ({ value: channel, label: t(`forgot.via.${channel}`) }))}
              optionType="button"
            />
          </Form.Item>
          <Form.Item label={t('bindings.code')} required>
            <Space.Compact block>
              <Form.Item name="code" noStyle rules={bindingRules.code}>
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
          <Form.Item name="newPassword" label={t('changePassword.new')} rules={rules.newPassword}>
            <Input.Password placeholder={t('changePassword.newPlaceholder')} autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="confirmPassword" label={t('changePassword.confirm')} rules={rules.confirmPassword} dependencies={['newPassword']}>
            <Input.Password placeholder={t('changePassword.confirmPlaceholder')} autoComplete="new-password" />
          </Form.Item>
          <ServerErrorAlert error={reset.error} className="fw-form-note" />
          <Form.Item className="fw-form-submit">
            <Button type="primary" htmlType="submit" block loading={reset.isPending} disabled={!sender.sent}>
              {t('forgot.submit')}
            </Button>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** "Scan with WeChat": a login QR code; a linked WeChat's scan logs in. */
export function WeChatLoginDialog({ onClose, onSuccess }: { onClose: () => void; onSuccess: (profile: Profile) => void }) {
  const { t } = useTranslation('account');
  const setProfile = useSetProfile();
  const [attempt, setAttempt] = useState(0);
  const [unlinked, setUnlinked] = useState(false);
  const onResult = useCallback(
    (result: ScanResult) => {
      if (result.status === 'done' && result.profile) {
        setProfile(result.profile);
        onSuccess(result.profile);
      } else if (result.status === 'unlinked') {
        setUnlinked(true);
      }
    },
    [onSuccess, setProfile],
  );
  return (
    <Modal open title={t('wechat.loginTitle')} onCancel={onClose} footer={null} destroyOnHidden width={380}>
      {unlinked ? (
        <Alert
          type="warning"
          showIcon
          title={t('wechat.unlinked')}
          action={
            <Button
              size="small"
              onClick={() => {
                setUnlinked(false);
                setAttempt((n) => n + 1);
              }}
            >
              {t('wechat.refresh')}
            </Button>
          }
        />
      ) : (
        <WeChatQR
          queryKey={['account', 'wechat-login-qr', attempt]}
          make={wechatLoginQR}
          poll={loginScanResult}
          onResult={onResult}
          hint={t('wechat.loginHint')}
        />
      )}
    </Modal>
  );
}
