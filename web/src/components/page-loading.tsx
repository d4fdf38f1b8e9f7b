import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="fw-page-loading">
      <Spin size="large" description={t('loading')} />
    </div>
  );
}
