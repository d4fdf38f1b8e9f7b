import { Button, Form, Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { MobileServerError } from '@/components/mobile-server-error';
import { useNotice } from '@/lib/notice';
import { useUpdateName, type UpdateNameInput } from '../api/update-name';
import { NAME_MAX_LENGTH, useAccountRules } from '../validation';

export function MobileChangeNameForm({ currentName }: { currentName: string }) {
  const { t } = useTranslation('account');
  const rules = useAccountRules();
  const notice = useNotice();
  const updateName = useUpdateName({ onSuccess: () => notice.success(t('changeName.success')) });

  return (
    <Form
      name="mobile-change-name"
      mode="card"
      requiredMarkStyle="none"
      initialValues={{ name: currentName }}
      onFinish={({ name }: UpdateNameInput) => updateName.mutate({ name: name.trim() })}
      onValuesChange={() => updateName.isError && updateName.reset()}
      footer={
        <>
          <MobileServerError error={updateName.error} />
          <Button block type="submit" color="primary" loading={updateName.isPending}>
            {t('changeName.submit')}
          </Button>
        </>
      }
    >
      <Form.Header>{t('changeName.title')}</Form.Header>
      <Form.Item name="name" label={t('changeName.label')} rules={rules.name}>
        <Input placeholder={t('changeName.placeholder')} maxLength={NAME_MAX_LENGTH} clearable autoComplete="nickname" />
      </Form.Item>
    </Form>
  );
}
