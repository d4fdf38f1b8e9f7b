import { List, Toast } from 'antd-mobile';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MobilePagedList } from '@/components/mobile-paged-list';
import { useMapDevices } from '@/features/devices/api/get-map-devices';
import { useMarkRead } from '@/features/events/api/mark-read';
import type { Message } from '@/features/events/types';
import { errorMessage } from '@/lib/api-client';
import { rowsOf } from '@/lib/infinite-pages';
import { useLang } from '@/lib/use-lang';
import { useOpenMobileDevice } from '@/lib/mobile-back';
import { useNow } from '@/lib/use-now';
import { useIdSet } from '@/lib/use-id-set';
import { getMessagePagesQueryOptions, useMessagePages } from '../api/get-message-pages';
import { deviceIndex, hasMessageFilters, withRead, type MessageFilters } from '../list-state';
import { MessageRow } from './message-row';

interface MessageListProps {
  filters: MessageFilters;
  onClear: () => void;
}

/** The messages, newest first; more load on scrolling down, the first page again on pulling down. */
export function MessageList({ filters, onClear }: MessageListProps) {
  const { t } = useTranslation('rules');
  const openDevice = useOpenMobileDevice();
  const now = useNow();
  const lang = useLang();
  const query = useMessagePages(filters);
  const { queryKey } = getMessagePagesQueryOptions(filters, lang);
  const devices = useMapDevices();
  const byId = useMemo(() => deviceIndex(devices.data?.list ?? []), [devices.data]);
  const marked = useIdSet();
  const markRead = useMarkRead();
  const messages = useMemo(
    () => withRead(rowsOf(query.data?.pages, (message) => message.messageId), marked.ids),
    [query.data, marked.ids],
  );

  const mark = (message: Message) => {
    if (message.read || marked.ids.has(message.messageId)) return;
    marked.add(message.messageId);
    markRead.mutate([message.messageId], {
      onError: (error) => {
        marked.remove(message.messageId);
        Toast.show({ content: errorMessage(error), icon: 'fail' });
      },
    });
  };

  const open = (message: Message) => {
    mark(message);
    const device = byId.get(message.ruleDeviceId);
    if (device) openDevice(device);
    else if (devices.data) Toast.show({ content: t('mobile.deviceGone') });
  };

  const filtered = hasMessageFilters(filters);
  return (
    <MobilePagedList
      query={query}
      queryKey={queryKey}
      count={messages.length}
      emptyTitle={
        filtered && filters.level === undefined && filters.kind === undefined
          ? t('events.emptyUnread')
          : filtered
            ? t('events.emptyEvents')
            : t('events.emptyMessages')
      }
      clear={filtered ? { label: t('events.filters.clear'), onClear } : undefined}
    >
      <List className="fw-m-message-list">
        {messages.map((message) => (
          <MessageRow
            key={message.messageId}
            message={message}
            device={byId.get(message.ruleDeviceId)}
            now={now}
            onOpen={open}
            onMarkRead={mark}
          />
        ))}
      </List>
    </MobilePagedList>
  );
}
