import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { isWholeLabel, labelFieldRule, typedLabelCode, type TypedLabel } from '../label';

/**
 * Asks for what a device label says: the whole label code (pasted, or its URL), or the SN and the
 * check code printed under the QR code. Gives the code to look the label up by.
 */
export function LabelEntryForm({ onSubmit, initialCode = '' }: { onSubmit: (code: string) => void; initialCode?: string }) {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<TypedLabel>();
  const first = Form.useWatch('sn', form) ?? initialCode;
  const whole = isWholeLabel(first);
  const check = (field: 'sn' | 'check') => labelFieldRule(() => form.getFieldsValue(), field, (problem) => t(`add.${problem}`));
  return (
    <Form<TypedLabel>
      form={form}
      name="device-label"
      layout="vertical"
      requiredMark={false}
      initialValues={{ sn: initialCode, check: '' }}
      onFinish={({ sn, check: code }) => {
        const result = typedLabelCode(sn ?? '', code ?? '');
        if ('code' in result) onSubmit(result.code);
      }}
    >
      <Form.Item name="sn" label={t('add.snLabel')} rules={[check('sn')]}>
        <Input placeholder={t('add.snPlaceholder')} autoComplete="off" autoFocus allowClear />
      </Form.Item>
      <Form.Item name="check" label={t('add.checkLabel')} extra={t('add.checkHint')} rules={[check('check')]} hidden={whole}>
        <Input placeholder={t('add.checkPlaceholder')} autoComplete="off" maxLength={8} />
      </Form.Item>
      <Form.Item className="fw-form-submit">
        <Button type="primary" htmlType="submit" data-testid="label-look-up">
          {t('add.lookUp')}
        </Button>
      </Form.Item>
    </Form>
  );
}
