import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Col, Drawer, Flex, Form, Input, Radio, Row, Select, Spin, Typography, type FormInstance } from 'antd';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useNotice } from '@/lib/notice';
import { useLang } from '@/lib/use-lang';
import { useCreateRule } from '../api/create-rule';
import { useRule } from '../api/get-rule';
import { useRuleDevices } from '../api/get-rule-devices';
import { getRuleParamsQueryOptions } from '../api/get-rule-params';
import { useRuleTemplates } from '../api/get-rule-templates';
import { useRuleTypes } from '../api/get-rule-types';
import { useUpdateRule } from '../api/update-rule';
import {
  applyTemplate,
  blankRuleValues,
  clearTemplate,
  emptyExpression,
  fromRule,
  paramSourceOf,
  toRuleInput,
  type ExpressionDraft,
  type RuleFormValues,
} from '../form-state';
import { LEVELS, NOTIFY_METHODS, SILENT_HOURS, type Rule, type RuleParam } from '../types';
import { characterCount, RULE_DESCRIPTION_MAX_LENGTH, RULE_MAX_EXPRESSIONS, RULE_NAME_MAX_LENGTH, useRuleFormRules } from '../validation';
import { ExpressionEditor } from './expression-editor';
import './rules.css';

/** The form fields a server validation error may name. */
const FORM_FIELDS = ['name', 'typeId', 'deviceIds', 'level', 'expressions', 'notify', 'silentHours', 'description'];

export interface RuleFormDrawerProps {
  /** 'new' for a new rule, a rule id to edit one, null while closed. */
  target: number | 'new' | null;
  onClose: () => void;
  /**
   * Whether the account has an address for each method (an e-mail address, a linked WeChat);
   * one without is shown as not available, with a link to bind it. Unknown: all available.
   */
  bound?: { email: boolean; wechat: boolean };
}

/** Adds or edits a rule in a drawer beside the table. */
export function RuleFormDrawer({ target, onClose, bound }: RuleFormDrawerProps) {
  const { t } = useTranslation('rules');
  const { t: tc } = useTranslation();
  const notice = useNotice();
  const [form] = Form.useForm<RuleFormValues>();
  const editingId = typeof target === 'number' ? target : null;
  const rule = useRule(editingId);
  const [serverError, setServerError] = useState<unknown>(null);
  const ready = target === 'new' || rule.data !== undefined;

  const saved = (message: string) => {
    notice.success(message);
    onClose();
  };
  const create = useCreateRule({ onSuccess: () => saved(t('form.created')) });
  const update = useUpdateRule({ onSuccess: () => saved(t('form.saved')) });

  // A server refusal that names a field shows under that field, like the form's own checks.
  const onError = (error: unknown) => {
    if (isApiError(error) && error.kind === 'normal' && error.field && FORM_FIELDS.includes(error.field)) {
      const name = error.field as keyof RuleFormValues;
      form.setFields([{ name, errors: [error.message] }]);
      form.scrollToField(name, { block: 'center' });
      return;
    }
    setServerError(error);
  };

  const submit = (values: RuleFormValues) => {
    setServerError(null);
    const input = toRuleInput(values, rule.data?.enabled ?? true);
    if (editingId !== null) update.mutate({ id: editingId, rule: input }, { onError });
    else create.mutate(input, { onError });
  };

  return (
    <Drawer
      open={target !== null}
      onClose={onClose}
      afterOpenChange={(open) => {
        if (!open) {
          setServerError(null);
          create.reset();
          update.reset();
        }
      }}
      title={editingId === null ? t('form.addTitle') : t('form.editTitle')}
      size={860}
      destroyOnHidden
      className="fw-rule-drawer"
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{tc('actions.cancel')}</Button>
          <Button
            type="primary"
            loading={create.isPending || update.isPending}
            disabled={!ready}
            onClick={() => form.submit()}
            data-testid="rule-save"
          >
            {t('form.save')}
          </Button>
        </Flex>
      }
    >
      {target === null ? null : ready ? (
        <RuleForm
          key={editingId ?? 'new'}
          form={form}
          rule={editingId === null ? undefined : rule.data}
          serverError={serverError}
          onSubmit={submit}
          bound={bound}
        />
      ) : rule.error ? (
        <ServerErrorAlert error={rule.error} />
      ) : (
        <Flex justify="center" className="fw-rule-drawer__loading">
          <Spin />
        </Flex>
      )}
    </Drawer>
  );
}

interface RuleFormProps {
  form: FormInstance<RuleFormValues>;
  /** The stored rule being edited; undefined for a new one. */
  rule?: Rule;
  /** A refusal of the last save that names no field of the form. */
  serverError: unknown;
  /** Called with every value (the template too) once the form's checks pass. */
  onSubmit: (values: RuleFormValues) => void;
  bound?: RuleFormDrawerProps['bound'];
}

function RuleForm({ form, rule, serverError, onSubmit, bound }: RuleFormProps) {
  const { t } = useTranslation('rules');
  const lang = useLang();
  const queryClient = useQueryClient();
  const initial = useMemo(() => (rule ? fromRule(rule) : blankRuleValues()), [rule]);
  const typeId = Form.useWatch('typeId', form);
  const templateId = Form.useWatch('template', form);
  const types = useRuleTypes();
  const devices = useRuleDevices(typeId);
  const templates = useRuleTemplates(rule ? undefined : typeId);
  const previousTemplate = useRef<string>(initial.template);

  // Validation reads the parameters the expression editors have loaded.
  const paramsOf = useCallback(
    (draft: ExpressionDraft): RuleParam[] | undefined => {
      const source = paramSourceOf(draft, form.getFieldValue('typeId') as number | undefined);
      return source ? queryClient.getQueryData(getRuleParamsQueryOptions(source, lang).queryKey) : undefined;
    },
    [form, queryClient, lang],
  );
  const rules = useRuleFormRules(paramsOf);

  const onValuesChange = (changed: Partial<RuleFormValues>) => {
    const current = form.getFieldsValue(true) as RuleFormValues;
    if ('typeId' in changed) {
      // Devices, parameters and templates all belong to a type.
      form.setFieldsValue({ deviceIds: [], expressions: [], template: '' });
      previousTemplate.current = '';
    } else if ('template' in changed) {
      const list = templates.data ?? [];
      const previous = list.find((tp) => tp.id === previousTemplate.current);
      const chosen = list.find((tp) => tp.id === changed.template);
      form.setFieldsValue(chosen ? applyTemplate(current, chosen, previous) : clearTemplate(current, previous));
      previousTemplate.current = changed.template ?? '';
      // Messages about what the template just filled in go away; nothing new is flagged.
      const flagged = form
        .getFieldsError(['name', 'expressions'])
        .filter((field) => field.errors.length > 0)
        .map((field) => field.name);
      if (flagged.length > 0) form.validateFields(flagged).catch(() => undefined);
    }
  };

  const typeOptions = (types.data ?? []).map((type) => ({
    value: type.typeId,
    label: t('form.typeOption', { name: type.typeName, count: type.count }),
  }));
  if (rule && !typeOptions.some((o) => o.value === rule.typeId)) typeOptions.push({ value: rule.typeId, label: rule.typeName });

  const deviceOptions = (devices.data ?? []).map((d) => ({ value: d.id, label: d.name, sn: d.sn }));
  const templateOptions = [
    { value: '', label: t('form.templateBlank') },
    ...(templates.data ?? []).map((tp) => ({ value: tp.id, label: tp.name })),
  ];
  const chosenTemplate = templates.data?.find((tp) => tp.id === templateId);

  return (
    <Form<RuleFormValues>
      form={form}
      name="rule"
      layout="vertical"
      initialValues={initial}
      onFinish={() => onSubmit(form.getFieldsValue(true) as RuleFormValues)}
      onValuesChange={onValuesChange}
      scrollToFirstError={{ block: 'center' }}
      className="fw-rule-form"
    >
      <Row gutter={16}>
        <Col span={14}>
          <Form.Item name="typeId" label={t('form.type')} rules={rules.typeId} required>
            <Select
              placeholder={t('form.typePlaceholder')}
              options={typeOptions}
              loading={types.isFetching}
              showSearch={{ optionFilterProp: 'label' }}
            />
          </Form.Item>
        </Col>
        <Col span={10}>
          <Form.Item name="level" label={t('form.level')}>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              options={LEVELS.map((level) => ({ value: level, label: t(`levels.${level}`) }))}
            />
          </Form.Item>
        </Col>
      </Row>
      {!rule && (
        <Form.Item
          name="template"
          label={t('form.template')}
          extra={typeId === undefined ? t('form.templateNeedsType') : chosenTemplate?.rule.description || undefined}
        >
          <Radio.Group
            className="fw-rule-form__templates"
            disabled={typeId === undefined}
            options={templateOptions}
            optionType="button"
          />
        </Form.Item>
      )}
      <Form.Item name="name" label={t('form.name')} rules={rules.name} required>
        <Input
          placeholder={t('form.namePlaceholder')}
          count={{ show: true, max: RULE_NAME_MAX_LENGTH, strategy: characterCount, exceedFormatter: (text, { max }) => Array.from(text).slice(0, max).join('') }}
          autoComplete="off"
        />
      </Form.Item>
      <Form.Item name="deviceIds" label={t('form.devices')} rules={rules.deviceIds} required>
        <Select
          mode="multiple"
          placeholder={typeId === undefined ? t('form.devicesNeedType') : t('form.devicesPlaceholder')}
          disabled={typeId === undefined}
          loading={devices.isFetching}
          options={deviceOptions}
          showSearch={{
            filterOption: (input, option) => {
              const needle = input.trim().toLowerCase();
              return !!option && (option.label.toLowerCase().includes(needle) || option.sn.toLowerCase().includes(needle));
            },
          }}
          optionRender={(option) => (
            <Flex justify="space-between" gap={12}>
              <span>{option.data.label}</span>
              <Typography.Text type="secondary" className="fw-rules-sn">
                {option.data.sn}
              </Typography.Text>
            </Flex>
          )}
          maxTagCount="responsive"
          allowClear
        />
      </Form.Item>
      <Form.Item label={t('form.conditions')} required extra={t('form.conditionsHint')} className="fw-rule-form__conditions">
        <Form.List name="expressions" rules={rules.expressions}>
          {(fields, { add, remove }, { errors }) => (
            <>
              {fields.map((field, index) => (
                <Form.Item key={field.key} name={field.name} rules={rules.expression} className="fw-rule-form__expression">
                  <ExpressionEditor index={index} typeId={typeId} onRemove={() => remove(field.name)} />
                </Form.Item>
              ))}
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                onClick={() => add(emptyExpression())}
                disabled={typeId === undefined || fields.length >= RULE_MAX_EXPRESSIONS}
              >
                {t('form.addCondition')}
              </Button>
              <Form.ErrorList errors={errors} />
            </>
          )}
        </Form.List>
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="notify" label={t('form.notify')} extra={t('form.notifyHint')}>
            <NotifyMethods bound={bound} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="silentHours" label={t('form.silent')} extra={t('form.silentHint')}>
            <Radio.Group options={SILENT_HOURS.map((hours) => ({ value: hours, label: t(`silent.${hours}`) }))} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="description" label={t('form.description')} rules={rules.description}>
        <Input.TextArea
          placeholder={t('form.descriptionPlaceholder')}
          autoSize={{ minRows: 2, maxRows: 5 }}
          count={{ show: true, max: RULE_DESCRIPTION_MAX_LENGTH, strategy: characterCount }}
        />
      </Form.Item>
      <ServerErrorAlert error={serverError} />
    </Form>
  );
}

/**
 * The notification methods. One the account has nothing bound for (no e-mail address, no linked
 * WeChat) cannot be chosen, and says so with a link to bind it in the account centre.
 */
function NotifyMethods({ bound, ...props }: { bound?: RuleFormDrawerProps['bound']; value?: string[]; onChange?: (value: string[]) => void }) {
  const { t } = useTranslation('rules');
  return (
    <Checkbox.Group
      {...props}
      options={NOTIFY_METHODS.map((method) => {
        const available = !bound || bound[method];
        return {
          value: method,
          disabled: !available && !props.value?.includes(method),
          label: available ? (
            t(`notify.${method}`)
          ) : (
            <span data-testid={`notify-unbound-${method}`}>
              {t(`notify.${method}`)}{' '}
              <Typography.Text type="secondary">({t('notify.unbound')}</Typography.Text>{' '}
              <Link to={paths.account}>{t('notify.bindLink')}</Link>
              <Typography.Text type="secondary">)</Typography.Text>
            </span>
          ),
        };
      })}
    />
  );
}
