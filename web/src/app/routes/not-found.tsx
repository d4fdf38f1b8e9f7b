import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

export default function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <div className="fw-fullpage">
      <Result
        status="404"
        title={t('notFound.title')}
        subTitle={t('notFound.description')}
        extra={
          <Link to={paths.home}>
            <Button type="primary">{t('actions.backHome')}</Button>
          </Link>
        }
      />
    </div>
  );
}
