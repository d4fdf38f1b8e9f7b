import { CheckOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Checkbox, Flex, Segmented, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useEvents } from '@/features/events/api/get-events';
import { useFilterOptions } from '@/features/events/api/get-filter-options';
import { useMessages } from '@/features/events/api/get-messages';
import { useUnreadCount } from '@/features/events/api/get-unread-count';
import { useMarkRead } from '@/features/events/api/mark-read';
import { EventFilters } from '@/features/events/components/event-filters';
import { EventTable } from '@/features/events/components/event-table';
import { filtersOf, parseEventsState, TABS, toSearchParams, withFilters, type EventsPageState, type Tab } from '@/features/events/list-query';
import type { Message } from '@/features/events/types';
import { errorMessage } from '@/lib/api-client';
import { useNotice } from '@/lib/notice';
import { usePageTitle } from '../../route-handle';

/** Now, moved on every minute, so "today" and "this year" in report times stay true. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

export default function EventsRoute() {
  const { t } = useTranslation('rules');
  const title = usePageTitle();
  const notice = useNotice();
  const now = useMinuteClock();
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useMemo(() => parseEventsState(searchParams), [searchParams]);
  const [selected, setSelected] = useState<number[]>([]);

  const go = (next: EventsPageState) => {
    setSelected([]);
    setSearchParams(toSearchParams(next));
  };

  const inbox = state.tab === 'messages';
  const messages = useMessages({ page: state.page, size: state.size, unread: state.unread }, { enabled: inbox });
  const events = useEvents({ page: state.page, size: state.size, ...filtersOf(state) }, { enabled: !inbox });
  const list = inbox ? messages : events;
  const { data: unread = 0 } = useUnreadCount();
  const { devices } = useFilterOptions();
  const deviceNames = useMemo(() => new Map(devices.map((device) => [device.id, device.name])), [devices]);

  const markRead = useMarkRead({
    onSuccess: (updated) => {
      setSelected([]);
      notice.success(t('events.markedRead', { count: updated }));
    },
  });
  const mark = (ids: number[]) => markRead.mutate(ids, { onError: (error) => notice.error(errorMessage(error)) });

  // A page past the end (messages were read while "unread only" was on): show the last page.
  const total = list.data?.total;
  useEffect(() => {
    if (total === undefined || list.isPlaceholderData) return;
    const last = Math.max(1, Math.ceil(total / state.size));
    if (state.page > last) setSearchParams(toSearchParams({ ...state, page: last }), { replace: true });
  }, [total, list.isPlaceholderData, state, setSearchParams]);

  const inboxProps = inbox
    ? { selected, onSelect: setSelected, onMarkRead: (message: Message) => mark([message.messageId]), marking: markRead.isPending }
    : undefined;

  return (
    <div className="fw-page fw-events">
      <Flex align="center" justify="space-between" wrap gap={12} className="fw-events__header">
        <Typography.Title level={3} className="fw-page__title fw-events__title">
          {title}
        </Typography.Title>
        <Segmented<Tab>
          value={state.tab}
          onChange={(tab) => go({ ...state, tab, page: 1 })}
          options={TABS.map((tab) => ({
            value: tab,
            label:
              tab === 'messages' ? (
                <Flex align="center" gap={6}>
                  {t('events.tabs.messages')}
                  <Badge count={unread} size="small" overflowCount={99} />
                </Flex>
              ) : (
                t('events.tabs.events')
              ),
          }))}
          data-testid="events-tabs"
        />
      </Flex>
      <Card variant="borderless" className="fw-events__card">
        {inbox ? (
          <Flex align="center" justify="space-between" wrap gap={12} className="fw-events__toolbar">
            <Checkbox checked={state.unread} onChange={(e) => go({ ...state, unread: e.target.checked, page: 1 })}>
              {t('events.unreadOnly')}
            </Checkbox>
            <Flex gap={8} align="center">
              <Typography.Text type="secondary">{t('events.unread', { count: unread })}</Typography.Text>
              <Button disabled={selected.length === 0} loading={markRead.isPending && selected.length > 0} onClick={() => mark(selected)}>
                {t('events.markSelectedRead')}
              </Button>
              <Button icon={<CheckOutlined />} disabled={unread === 0} onClick={() => mark([])}>
                {t('events.markAllRead')}
              </Button>
            </Flex>
          </Flex>
        ) : (
          <EventFilters value={filtersOf(state)} onChange={(filters) => go(withFilters(state, filters))} />
        )}
        <ServerErrorAlert error={list.error} className="fw-events__error" />
        <EventTable
          items={list.data?.list ?? []}
          total={list.data?.total ?? 0}
          loading={list.isFetching}
          page={state.page}
          size={state.size}
          now={now}
          emptyText={inbox ? (state.unread ? t('events.emptyUnread') : t('events.emptyMessages')) : t('events.emptyEvents')}
          deviceNames={deviceNames}
          onPageChange={(page, size) => go({ ...state, page: size === state.size ? page : 1, size })}
          inbox={inboxProps}
        />
      </Card>
    </div>
  );
}
