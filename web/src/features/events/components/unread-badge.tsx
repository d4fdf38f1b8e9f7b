import { Badge } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnreadCount } from '../api/get-unread-count';
import './events.css';

interface UnreadMenuIconProps {
  icon: ReactNode;
  /** Set by the menu on its item icons. */
  className?: string;
}

/** A menu icon with the number of unread messages on it, refreshed every 30 seconds. */
export function UnreadMenuIcon({ icon, className }: UnreadMenuIconProps) {
  const { t } = useTranslation('rules');
  const { data: unread = 0 } = useUnreadCount();
  return (
    <span className={className ? `${className} fw-unread-icon` : 'fw-unread-icon'}>
      <Badge
        count={unread}
        size="small"
        overflowCount={99}
        title={t('events.unreadBadge', { count: unread })}
        data-testid="unread-badge"
      >
        {icon}
      </Badge>
    </span>
  );
}
