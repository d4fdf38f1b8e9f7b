import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { PURVIEW_KEYS, type Purview } from '@/features/sharing/types';

/** The rights a grant carries, as small tags; "view only" when it carries none. */
export function MobilePurviewTags({ purview }: { purview: Purview }) {
  const { t } = useTranslation('sharing');
  const granted = PURVIEW_KEYS.filter((key) => purview[key]);
  if (granted.length === 0) {
    return (
      <Tag fill="outline" color="default" className="fw-m-share-right">
        {t('rights.viewOnly')}
      </Tag>
    );
  }
  return (
    <>
      {granted.map((key) => (
        <Tag key={key} color="primary" fill="outline" className="fw-m-share-right">
          {t(`rights.${key}`)}
        </Tag>
      ))}
    </>
  );
}
