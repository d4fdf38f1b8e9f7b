import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useLogin, type LoginInput } from '../api/login';
import type { Profile } from '../types';
import { useAccountRules } from '../validation';

export function LoginForm({ onSuccess }: { onSuccess: (profile: Profile) => void }) {
  const { t } = useTranslation('account');
  const rules = useAccountRules();
  const login = useLogin({ onSuccess });

  return (
    <Form<LoginInput>
      name="login"
      layout="vertical"
      size="large"
      requiredMark={false}
      onFinish={(values) => login.mutate(values)}
      onValuesChange={() => login.isError && login.reset()}
    >
      <Form.Item name="accountNumber" label={t('login.accountNumber')} rules={rules.accountNumber}>
        <Input
          prefix={<UserOutlined />}
          placeholder={t('login.accountNumberPlaceholder')}
          autoComplete="username"
          autoCapitalize="off"
          spellCheck={false}
        />
      </Form.Item>
      <Form.Item name="password" label={t('login.password')} rules={rules.loginPassword}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('login.passwordPlaceholder')} autoComplete="current-password" />
      </Form.Item>
      <Form.Item className="fw-form-submit">
        <Button type="primary" htmlType="submit" block loading={login.isPending}>
          {t('login.submit')}
        </Button>
      </Form.Item>
      <ServerErrorAlert error={login.error} />
    </Form>
  );
}
