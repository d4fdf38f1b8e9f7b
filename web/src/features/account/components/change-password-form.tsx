import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useNotice } from '@/lib/notice';
import { useUpdatePassword } from '../api/update-password';
import { useAccountRules } from '../validation';

interface PasswordFields {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function ChangePasswordForm() {
  const { t } = useTranslation('account');
  const rules = useAccountRules();
  const notice = useNotice();
  const [form] = Form.useForm<PasswordFields>();
  const updatePassword = useUpdatePassword({
    onSuccess: () => {
      form.resetFields();
      notice.success(t('changePassword.success'));
    },
  });

  return (
    <Form<PasswordFields>
      form={form}
      name="change-password"
      layout="vertical"
      requiredMark={false}
      onFinish={({ oldPassword, newPassword }) => updatePassword.mutate({ oldPassword, newPassword })}
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
