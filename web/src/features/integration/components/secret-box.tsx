import { CopyOutlined, KeyOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Input, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useCopy } from '@/lib/use-copy';

export interface SecretBoxProps {
  secret: string;
  /** What the secret is for, e.g. "signing secret". */
  label: string;
  /** Shown under the warning: what to do with it. */
  hint?: string;
}

/** A secret the server hands out once: copyable, with a plain warning that it cannot be shown again. */
export function SecretBox({ secret, label, hint }: SecretBoxProps) {
  const { t } = useTranslation('integration');
  const copy = useCopy({ copied: t('secret.copied'), failed: t('secret.copyFailed') });
  return (
    <div className="fw-secret-box" data-testid="secret-box">
      <Alert
        type="warning"
        showIcon
        title={t('secret.onceTitle')}
        description={hint ? `${t('secret.onceBody')} ${hint}` : t('secret.onceBody')}
      />
      <Typography.Text strong>{label}</Typography.Text>
      <Space.Compact block className="fw-secret-box__value">
        <Input readOnly value={secret} aria-label={label} className="fw-mono" data-testid="secret-value" onFocus={(event) => event.target.select()} />
        <Button type="primary" icon={<CopyOutlined />} onClick={() => void copy(secret)} data-testid="secret-copy">
          {t('secret.copy')}
        </Button>
      </Space.Compact>
    </div>
  );
}

export interface SecretResetProps extends Omit<SecretBoxProps, 'secret'> {
  /** The new secret, once it was replaced. */
  secret?: string;
  /** The secret is being replaced. */
  pending: boolean;
  /** Why replacing it failed. */
  error: unknown;
  /** Replaces the secret, once the user has confirmed. */
  onReset: () => void;
}

/**
 * Replaces a secret when the old one is lost or leaked: asks first, then shows the new one once,
 * as for a new secret.
 */
export function SecretReset({ secret, label, hint, pending, error, onReset }: SecretResetProps) {
  const { t } = useTranslation('integration');
  return (
    <Flex vertical gap={12}>
      <Typography.Text type="secondary">{t('secret.resetExplain')}</Typography.Text>
      {secret !== undefined ? (
        <SecretBox secret={secret} label={label} hint={hint} />
      ) : (
        <div>
          <Popconfirm
            title={t('secret.resetTitle')}
            description={t('secret.resetDescription')}
            okText={t('secret.resetOk')}
            okButtonProps={{ danger: true }}
            onConfirm={onReset}
          >
            <Button icon={<KeyOutlined />} loading={pending} data-testid="secret-reset">
              {t('secret.reset')}
            </Button>
          </Popconfirm>
        </div>
      )}
      <ServerErrorAlert error={error} />
    </Flex>
  );
}
