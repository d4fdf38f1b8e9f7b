import { Button, Toast } from 'antd-mobile';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useUnreadCount } from '@/features/events/api/get-unread-count';
import { useMarkRead } from '@/features/events/api/mark-read';
import { MessageFilterBar } from '@/features/mobile-messages/components/message-filter-bar';
import { MessageList } from '@/features/mobile-messages/components/message-list';
import '@/features/mobile-messages/components/mobile-messages.css';
import { parseMessageFilters, toMessageSearch, type MessageFilters } from '@/features/mobile-messages/list-state';
import { errorMessage } from '@/lib/api-client';
import { MobilePage } from '../../layouts/mobile-page';

export default function MobileMessagesRoute() {
  const { t } = useTranslation('rules');
  const [params, setParams] = useSearchParams();
  const filters = parseMessageFilters(params);
  const { data: unread = 0 } = useUnreadCount();
  const markAll = useMarkRead({
    onSuccess: (updated) => Toast.show({ content: t('events.markedRead', { count: updated }), icon: 'success' }),
  });
  const change = useCallback(
    (next: Partial<MessageFilters>) =>
      setParams((current) => toMessageSearch({ ...parseMessageFilters(current), ...next }), { replace: true }),
    [setParams],
  );

  return (
    <MobilePage
      right={
        <Button
          fill="none"
          size="small"
          className="fw-m-mark-all"
          disabled={unread === 0 || markAll.isPending}
          onClick={() => markAll.mutate([], { onError: (error) => Toast.show({ content: errorMessage(error), icon: 'fail' }) })}
        >
          {t('mobile.markAllRead')}
        </Button>
      }
    >
      <MessageFilterBar filters={filters} onChange={change} />
      <MessageList filters={filters} onClear={() => setParams(new URLSearchParams(), { replace: true })} />
    </MobilePage>
  );
}
