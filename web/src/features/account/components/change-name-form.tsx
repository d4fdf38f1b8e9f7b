import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useNotice } from '@/lib/notice';
import { useUpdateName, type UpdateNameInput } from '../api/update-name';
import { NAME_MAX_LENGTH, useAccountRules } from '../validation';

export function ChangeNameForm({ currentName }: { currentName: string }) {
  const { t } = useTranslation('account');
  const rules = useAccountRules();
  const notice = useNotice();
  const updateName = useUpdateName({ onSuccess: () => notice.success(t('changeName.success')) });

  return (
    <Form<UpdateNameInput>
      name="change-name"
      layout="vertical"
      requiredMark={false}
      initialValues={{ name: currentName }}
      onFinish={({ name }) => updateName.mutate({ name: name.trim() })}
      onValuesChange={() => updateName.isError && updateName.reset()}
    >
      <Form.Item name="name" label={t('changeName.label')} rules={rules.name}>
        <Input placeholder={t('changeName.placeholder')} showCount maxLength={NAME_MAX_LENGTH} autoComplete="nickname" />
      </Form.Item>
      <Form.Item className="fw-form-submit">
        <Button type="primary" htmlType="submit" loading={updateName.isPending}>
          {t('changeName.submit')}
        </Button>
      </Form.Item>
      <ServerErrorAlert error={updateName.error} />
    </Form>
  );
}
