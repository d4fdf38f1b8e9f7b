import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useAccountRules } from '../validation';
import { usePasswordChange, type PasswordFields } from './use-password-change';

export function ChangePasswordForm() {
  const { t } = useTranslation('account');
  const rules = useAccountRules();
  const [form] = Form.useForm<PasswordFields>();
  const { mutation: updatePassword, submit } = usePasswordChange(() => form.resetFields());

  return (
    <Form<PasswordFields>
      form={form}
      name="change-password"
      layout="vertical"
      requiredMark={false}
      onFinish={submit}
      onValuesChange={() => updatePassword.isError && updatePassword.reset()}
    >
      <Form.Item name="oldPassword" label={t('changePassword.old')} rules={rules.oldPassword}>
        <Input.Password placeholder={t('changePassword.oldPlaceholder')} autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="newPassword" label={t('changePassword.new')} rules={rules.newPassword} dependencies={['oldPassword']}>
        <Input.Password placeholder={t('changePassword.newPlaceholder')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('changePassword.confirm')}
        rules={rules.confirmPassword}
        dependencies={['newPassword']}
      >
        <Input.Password placeholder={t('changePassword.confirmPlaceholder')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item className="fw-form-submit">
        <Button type="primary" htmlType="submit" loading={updatePassword.isPending}>
          {t('changePassword.submit')}
        </Button>
      </Form.Item>
      <ServerErrorAlert error={updatePassword.error} />
    </Form>
  );
}
