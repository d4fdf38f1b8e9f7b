import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { isWholeLabel, typedLabelCode } from '../label';

interface LabelEntryValues {
  sn: string;
  check: string;
}

/**
 * Asks for what a device label says: the whole label code (pasted, or its URL), or the SN and the
 * check code printed under the QR code. Gives the code to look the label up by.
 */
export function LabelEntryForm({ onSubmit, initialCode = '' }: { onSubmit: (code: string) => void; initialCode?: string }) {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<LabelEntryValues>();
  const first = Form.useWatch('sn', form) ?? initialCode;
  const whole = isWholeLabel(first);
  const check = (field: 'sn' | 'check') => ({
    validator: () => {
      const { sn = '', check = '' } = form.getFieldsValue();
      const result = typedLabelCode(sn, check);
      if ('problem' in result && result.field === field) return Promise.reject(new Error(t(`add.${result.problem}`)));
      return Promise.resolve();
    },
  });
  return (
    <Form<LabelEntryValues>
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
