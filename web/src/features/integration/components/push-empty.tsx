import { PlusOutlined, QuestionCircleOutlined, SendOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** No channel yet: what data push does, and how to start. */
export function PushEmpty({ newTo, helpTo }: { newTo: string; helpTo: string }) {
  const { t } = useTranslation('integration');
  return (
    <Flex vertical align="center" gap={12} className="fw-push-empty" data-testid="push-empty">
      <SendOutlined className="fw-push-empty__icon" />
      <Typography.Title level={4} className="fw-push-empty__title">
        {t('empty.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" className="fw-push-empty__text">
        {t('empty.body')}
      </Typography.Paragraph>
      <ul className="fw-push-empty__steps">
        <li>{t('empty.step1')}</li>
        <li>{t('empty.step2')}</li>
        <li>{t('empty.step3')}</li>
      </ul>
      <Flex gap={8}>
        <Link to={newTo}>
          <Button type="primary" icon={<PlusOutlined />}>
            {t('channels.new')}
          </Button>
        </Link>
        <Link to={helpTo}>
          <Button icon={<QuestionCircleOutlined />}>{t('empty.help')}</Button>
        </Link>
      </Flex>
    </Flex>
  );
}
