import { Button, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

/** An empty tab that says what to do to fill it. */
export function SharingEmpty({ description, toDevices = true }: { description: string; toDevices?: boolean }) {
  const { t } = useTranslation('sharing');
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description} className="fw-share-empty">
      {toDevices && (
        <Link to={paths.devices}>
          <Button type="primary">{t('manage.toDevices')}</Button>
        </Link>
      )}
    </Empty>
  );
}
