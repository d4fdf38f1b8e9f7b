import { Button, Form, Input, Popup, Toast } from 'antd-mobile';
import { AddOutline, ScanningOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { labelFieldRule, labelPagePath, typedLabelCode, type TypedLabel } from '@/features/devices/label';
import { useScanQRCode } from '@/features/wechat/hooks';

function TypeLabelSheet({ visible, onClose, onCode }: { visible: boolean; onClose: () => void; onCode: (code: string) => void }) {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<TypedLabel>();
  const rule = (field: 'sn' | 'check') => labelFieldRule(() => form.getFieldsValue(), field, (problem) => t(`add.${problem}`));
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} showCloseButton bodyClassName="fw-m-add-sheet" destroyOnClose>
      <div className="fw-m-add-sheet__title">{t('add.title')}</div>
      <p className="fw-m-add-sheet__intro">{t('add.intro')}</p>
      <Form
        form={form}
        layout="vertical"
        requiredMarkStyle="none"
        onFinish={({ sn, check }: TypedLabel) => {
          const result = typedLabelCode(sn ?? '', check ?? '');
          if ('code' in result) onCode(result.code);
        }}
        footer={
          <Button block type="submit" color="primary" size="large" data-testid="m-label-look-up">
            {t('add.lookUp')}
          </Button>
        }
      >
        <Form.Item name="sn" label={t('add.snLabel')} rules={[rule('sn')]}>
          <Input placeholder={t('add.snPlaceholder')} autoComplete="off" clearable />
        </Form.Item>
        <Form.Item name="check" label={t('add.checkLabel')} description={t('add.checkHint')} rules={[rule('check')]}>
          <Input placeholder={t('add.checkPlaceholder')} autoComplete="off" maxLength={8} />
        </Form.Item>
      </Form>
    </Popup>
  );
}

/**
 * The phone device list's add button: in WeChat it scans the device label with the camera (QR codes
 * only); elsewhere, or when the camera reads nothing, the user types what the label says. Either way
 * the label's page (/apps/info) shows the device and adds it.
 */
export function AddDeviceButton() {
  const { t } = useTranslation('devices');
  const navigate = useNavigate();
  const scanner = useScanQRCode();
  const [typing, setTyping] = useState(false);
  const open = (code: string) => void navigate(labelPagePath(code));
  const start = () => {
    if (!scanner.available) {
      setTyping(true);
      return;
    }
    scanner.scan().then(open, (error: unknown) => {
      if (error instanceof Error && error.message.includes('cancel')) return;
      Toast.show({ content: t('add.scanFailed') });
      setTyping(true);
    });
  };
  return (
    <>
      <Button fill="none" size="small" className="fw-m-view-toggle" data-testid="m-add-device" onClick={start} aria-label={t('add.button')}>
        {scanner.available ? <ScanningOutline /> : <AddOutline />} {scanner.available ? t('add.scan') : t('add.button')}
      </Button>
      <TypeLabelSheet
        visible={typing}
        onClose={() => setTyping(false)}
        onCode={(code) => {
          setTyping(false);
          open(code);
        }}
      />
    </>
  );
}
