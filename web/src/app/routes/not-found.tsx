import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FullPageMessage } from '@/components/full-page-message';
import { paths } from '@/config/paths';

export default function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <FullPageMessage
      code="404"
      title={t('notFound.title')}
      description={t('notFound.description')}
      action={
        <Link to={paths.home} className="fw-button fw-button--primary">
          {t('actions.backHome')}
        </Link>
      }
    />
  );
}
