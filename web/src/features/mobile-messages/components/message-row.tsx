import { List, SwipeAction, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { Message } from '@/features/events/types';
import { formatDateTime, formatReportTime } from '@/lib/format';
import type { MessageDevice } from '../list-state';

interface MessageRowProps {
  message: Message;
  device?: MessageDevice;
  now: number;
  onOpen: (message: Message) => void;
  onMarkRead: (message: Message) => void;
}

/** One alert message: what happened, on which device, when; unread ones stand out. */
export function MessageRow({ message, device, now, onOpen, onMarkRead }: MessageRowProps) {
  const { t } = useTranslation('rules');
  const unread = !message.read;
  const row = (
    <List.Item
      className={unread ? 'fw-m-message fw-m-message--unread' : 'fw-m-message'}
      data-testid="mobile-message-row"
      data-message-id={message.messageId}
      data-read={message.read}
      onClick={() => onOpen(message)}
      arrowIcon={device !== undefined}
      prefix={<span className="fw-m-message__dot" {...(unread ? { role: 'img', 'aria-label': t('events.unreadMark') } : { 'aria-hidden': true })} />}
      description={
        <div className="fw-m-message__body">
          <div className="fw-m-message__description">{message.description}</div>
          <div className="fw-m-message__device">
            {device ? device.name : message.sn}
            <span className="fw-m-message__type"> · {device ? `${message.sn} · ${message.deviceType}` : message.deviceType}</span>
          </div>
        </div>
      }
    >
      <div className="fw-m-message__head">
        <Tag color={message.level === 'alarm' ? 'danger' : 'primary'} fill="outline" className="fw-m-message__tag">
          {t(`levels.${message.level}`)}
        </Tag>
        <Tag color={message.kind === 'warning' ? 'warning' : 'success'} fill="outline" className="fw-m-message__tag">
          {t(`events.kinds.${message.kind}`)}
        </Tag>
        <span className="fw-m-message__time" title={formatDateTime(message.time)}>
          {formatReportTime(message.time, now)}
        </span>
      </div>
      <div className="fw-m-message__rule">{message.ruleName}</div>
    </List.Item>
  );
  if (!unread) return row;
  return (
    <SwipeAction
      rightActions={[{ key: 'read', text: t('events.markRead'), color: 'primary', onClick: () => onMarkRead(message) }]}
    >
      {row}
    </SwipeAction>
  );
}
