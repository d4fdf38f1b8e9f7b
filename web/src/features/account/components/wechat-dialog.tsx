import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useNotice } from '@/lib/notice';
import { bindScanResult, useSetProfile, useWeChatUnbind, wechatBindQR, type ScanResult } from '../api/bindings';
import { WeChatQR } from './wechat-qr';

/** Links the account's WeChat by scanning a QR code, or unlinks it with the password. */
export function WeChatDialog({ mode, onClose }: { mode: 'bind' | 'unbind'; onClose: () => void }) {
  const { t } = useTranslation('account');
  const notice = useNotice();
  const setProfile = useSetProfile();
  const [taken, setTaken] = useState(false);
  const unbind = useWeChatUnbind(() => {
    notice.success(t('bindings.wechat.unbound'));
    onClose();
  });
  const onResult = useCallback(
    (result: ScanResult) => {
      if (result.status === 'bound' && result.profile) {
        setProfile(result.profile);
        notice.success(t('bindings.wechat.bound'));
        onClose();
      } else if (result.status === 'taken') {
        setTaken(true);
      }
    },
    [notice, onClose, setProfile, t],
  );

  return (
    <Modal
      open
      title={t(mode === 'bind' ? 'bindings.wechat.bindTitle' : 'bindings.wechat.unbindTitle')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={420}
    >
      {mode === 'bind' ? (
        taken ? (
          <Typography.Paragraph type="danger">{t('bindings.wechat.taken')}</Typography.Paragraph>
        ) : (
          <WeChatQR
            queryKey={['account', 'wechat-bind-qr']}
            make={wechatBindQR}
            poll={bindScanResult}
            onResult={onResult}
            hint={t('bindings.wechat.scanHint')}
          />
        )
      ) : (
        <Form<{ password: string }>
          layout="vertical"
          requiredMark={false}
          onFinish={({ password }) => unbind.mutate(password)}
          onValuesChange={() => unbind.isError && unbind.reset()}
        >
          <Typography.Paragraph>{t('bindings.wechat.unbindText')}</Typography.Paragraph>
          <Form.Item name="password" label={t('changePassword.old')} rules={[{ required: true, message: t('changePassword.oldRequired') }]}>
            <Input.Password autoComplete="current-password" placeholder={t('changePassword.oldPlaceholder')} />
          </Form.Item>
          <ServerErrorAlert error={unbind.error} className="fw-form-note" />
          <Form.Item className="fw-form-submit">
            <Space>
              <Button onClick={onClose}>{t('bindings.cancel')}</Button>
              <Button type="primary" danger htmlType="submit" loading={unbind.isPending}>
                {t('bindings.confirmUnbind')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
