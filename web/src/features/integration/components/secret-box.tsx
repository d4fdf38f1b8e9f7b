import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopy } from './use-copy';

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
  const copy = useCopy();
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
