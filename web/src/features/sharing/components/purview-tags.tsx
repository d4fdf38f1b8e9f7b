import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { PURVIEW_KEYS, type Purview } from '../types';

/** The rights a grant carries, as tags; "view only" when it carries none. */
export function PurviewTags({ purview }: { purview: Purview }) {
  const { t } = useTranslation('sharing');
  const granted = PURVIEW_KEYS.filter((key) => purview[key]);
  if (granted.length === 0) return <Tag className="fw-share-right">{t('rights.viewOnly')}</Tag>;
  return (
    <>
      {granted.map((key) => (
        <Tag key={key} color="blue" className="fw-share-right">
          {t(`rights.${key}`)}
        </Tag>
      ))}
    </>
  );
}
