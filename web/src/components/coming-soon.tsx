import { RocketOutlined } from '@ant-design/icons';
import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

interface ComingSoonProps {
  title?: string;
  /** Where the "back" button leads; no button when omitted. */
  backTo?: string;
}

/** Stands in for a screen that is being upgraded. */
export function ComingSoon({ title, backTo }: ComingSoonProps) {
  const { t } = useTranslation();
  return (
    <Card variant="borderless" className="fw-coming-soon">
      <Result
        icon={<RocketOutlined className="fw-coming-soon__icon" />}
        title={title}
        subTitle={t('comingSoon')}
        extra={
          backTo ? (
            <Link to={backTo}>
              <Button type="primary">{t('actions.backHome')}</Button>
            </Link>
          ) : undefined
        }
      />
    </Card>
  );
}
