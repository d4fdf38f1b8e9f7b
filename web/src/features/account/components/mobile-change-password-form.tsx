import { Button, Form, Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { MobileServerError } from '@/components/mobile-server-error';
import { useAccountRules } from '../validation';
import { usePasswordChange, type PasswordFields } from './use-password-change';

export function MobileChangePasswordForm() {
  const { t } = useTranslation('account');
  const rules = useAccountRules();
  const [form] = Form.useForm<PasswordFields>();
  const { mutation: updatePassword, submit } = usePasswordChange(() => form.resetFields());

  return (
    <Form
      form={form}
      name="mobile-change-password"
      mode="card"
      requiredMarkStyle="none"
      onFinish={submit}
      onValuesChange={() => updatePassword.isError && updatePassword.reset()}
      footer={
        <>
          <MobileServerError error={updatePassword.error} />
          <Button block type="submit" color="primary" loading={updatePassword.isPending}>
            {t('changePassword.submit')}
          </Button>
        </>
      }
    >
      <Form.Header>{t('changePassword.title')}</Form.Header>
      <Form.Item name="oldPassword" label={t('changePassword.old')} rules={rules.oldPassword}>
        <Input type="password" placeholder={t('changePassword.oldPlaceholder')} autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="newPassword" label={t('changePassword.new')} rules={rules.newPassword} dependencies={['oldPassword']}>
        <Input type="password" placeholder={t('changePassword.newPlaceholder')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('changePassword.confirm')}
        rules={rules.confirmPassword}
        dependencies={['newPassword']}
      >
        <Input type="password" placeholder={t('changePassword.confirmPlaceholder')} autoComplete="new-password" />
      </Form.Item>
    </Form>
  );
}
