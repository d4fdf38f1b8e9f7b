import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './integration.css';

export interface PushHeaderProps {
  title: ReactNode;
  subtitle: ReactNode;
  /** Buttons at the right of a list page. */
  actions?: ReactNode;
  /** A page below a list: an arrow before the title leads back. */
  onBack?: () => void;
}

/** The title and subtitle over a data-push or open-API page, with its buttons or a way back. */
export function PushHeader({ title, subtitle, actions, onBack }: PushHeaderProps) {
  const { t } = useTranslation('integration');
  const heading = (
    <div>
      <Typography.Title level={3} className="fw-page__title fw-push__title">
        {title}
      </Typography.Title>
      <Typography.Text type="secondary" className="fw-push__subtitle">
        {subtitle}
      </Typography.Text>
    </div>
  );
  if (onBack) {
    return (
      <Flex align="center" gap={8} className="fw-push__header">
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={onBack} aria-label={t('config.back')} />
        {heading}
      </Flex>
    );
  }
  return (
    <Flex align="flex-start" justify="space-between" wrap gap={12} className="fw-push__header">
      {heading}
      {actions}
    </Flex>
  );
}
