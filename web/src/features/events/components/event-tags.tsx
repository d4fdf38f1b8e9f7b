import { CheckCircleOutlined, WarningOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Kind, Level } from '../types';

/** Red when a rule's condition began, green when it ended. */
export function KindTag({ kind }: { kind: Kind }) {
  const { t } = useTranslation('rules');
  return (
    <Tag
      color={kind === 'warning' ? 'error' : 'success'}
      icon={kind === 'warning' ? <WarningOutlined /> : <CheckCircleOutlined />}
      className="fw-event-kind"
      data-kind={kind}
    >
      {t(`events.kinds.${kind}`)}
    </Tag>
  );
}

export function EventLevelTag({ level }: { level: Level }) {
  const { t } = useTranslation('rules');
  return (
    <Tag color={level === 'alarm' ? 'red' : 'blue'} variant="outlined" className="fw-event-level">
      {t(`levels.${level}`)}
    </Tag>
  );
}
