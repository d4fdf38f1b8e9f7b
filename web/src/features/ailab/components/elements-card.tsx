import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Popconfirm, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { isApiError } from '@/lib/api-client';
import { useRowMutation } from '@/lib/use-row-mutation';
import { useCreateElement, useDeleteElement, useElements, type NewElement } from '../api/elements';
import { elementColor } from '../lib/colors';
import type { Element } from '../types';

/** The account's elements (what labels name): listed with their colour and key, added, removed. */
export function ElementsCard() {
  const { t } = useTranslation('ailab');
  const elements = useElements();
  const create = useCreateElement();
  const { ids: deleting, run: remove } = useRowMutation(useDeleteElement().mutate);
  const [form] = Form.useForm<NewElement>();
  const [fieldError, setFieldError] = useState<unknown>(null);
  const list = elements.data ?? [];
  const identifiers = list.map((element) => element.identifier);

  const onFinish = (values: NewElement) => {
    setFieldError(null);
    create.mutate(
      { name: values.name.trim(), identifier: values.identifier.trim(), unit: (values.unit ?? '').trim() },
      {
        onSuccess: () => form.resetFields(),
        onError: (error) => {
          const field = isApiError(error) ? error.field : undefined;
          if (field === 'name' || field === 'identifier' || field === 'unit') form.setFields([{ name: field, errors: [error.message] }]);
          else setFieldError(error);
        },
      },
    );
  };

  const columns: TableColumnsType<Element> = [
    {
      title: t('elements.key'),
      key: 'key',
      width: 72,
      render: (_, _element, index) => (
        <span className="fw-lab-key" aria-label={index < 9 ? t('elements.keyHint', { key: index + 1 }) : undefined}>
          {index < 9 ? index + 1 : '–'}
        </span>
      ),
    },
    {
      title: t('elements.name'),
      dataIndex: 'name',
      render: (name: string, element) => (
        <span>
          <span className="fw-lab-swatch" style={{ background: elementColor(identifiers, element.identifier) }} aria-hidden /> {name}
        </span>
      ),
    },
    { title: t('elements.identifier'), dataIndex: 'identifier', render: (value: string) => <code>{value}</code> },
    { title: t('elements.unit'), dataIndex: 'unit', render: (value: string) => value || '--' },
    {
      title: t('actions'),
      key: 'actions',
      width: 96,
      render: (_, element) => (
        <Popconfirm title={t('elements.deleteConfirm', { name: element.name })} onConfirm={() => remove(element.id, element.id, t('deleted'))}>
          <Button type="text" danger icon={<DeleteOutlined />} loading={deleting.has(element.id)} aria-label={t('elements.delete', { name: element.name })} />
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card variant="borderless" className="fw-lab__card fw-lab__block" title={t('elements.title')} data-testid="lab-elements">
      <ServerErrorAlert error={elements.error} className="fw-lab__toolbar" />
      <Form form={form} layout="inline" onFinish={onFinish} className="fw-lab__toolbar" requiredMark={false}>
        <Form.Item name="name" label={t('elements.name')} rules={[{ required: true, whitespace: true, message: t('elements.nameRequired') }]}>
          <Input maxLength={64} placeholder={t('elements.namePlaceholder')} data-testid="element-name" />
        </Form.Item>
        <Form.Item
          name="identifier"
          label={t('elements.identifier')}
          rules={[
            { required: true, message: t('elements.identifierRule') },
            { pattern: /^[A-Za-z0-9_-]{1,32}$/, message: t('elements.identifierRule') },
          ]}
        >
          <Input maxLength={32} placeholder="moth" data-testid="element-identifier" />
        </Form.Item>
        <Form.Item name="unit" label={t('elements.unit')}>
          <Input maxLength={16} placeholder={t('elements.unitPlaceholder')} style={{ width: 100 }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={create.isPending} data-testid="element-add">
            {t('elements.add')}
          </Button>
        </Form.Item>
      </Form>
      <ServerErrorAlert error={fieldError} className="fw-lab__toolbar" />
      <Table<Element>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list}
        loading={elements.isPending}
        pagination={false}
        locale={{ emptyText: t('elements.empty') }}
        scroll={{ x: 'max-content' }}
      />
    </Card>
  );
}
