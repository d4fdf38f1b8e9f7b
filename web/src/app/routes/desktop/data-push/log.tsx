import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Select } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { paths } from '@/config/paths';
import { useChannels } from '@/features/integration/api/get-channels';
import { useDeviceSelector } from '@/features/integration/api/get-device-selector';
import { usePushLog } from '@/features/integration/api/get-push-log';
import { useRetryDelivery } from '@/features/integration/api/retry-delivery';
import { ChannelStatsHeader } from '@/features/integration/components/channel-stats-header';
import { PushHeader } from '@/features/integration/components/push-header';
import { LOG_PAGE_SIZES, PushLogTable } from '@/features/integration/components/push-log-table';
import { WindowSelector } from '@/features/integration/components/window-selector';
import { DEFAULT_WINDOW, isPushWindow, PUSH_STATUSES, type PushLogEntry, type PushStatus, type PushWindow } from '@/features/integration/types';
import { useRowMutation } from '@/lib/use-row-mutation';
import { usePageTitle } from '../../../route-handle';

function positive(value: string | null): number | undefined {
  const number = Number(value);
  return value !== null && Number.isInteger(number) && number > 0 ? number : undefined;
}

function isStatus(value: string | null): value is PushStatus {
  return (PUSH_STATUSES as readonly (string | null)[]).includes(value);
}

export default function DataPushLogRoute() {
  const { t } = useTranslation('integration');
  const title = usePageTitle();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const channelId = positive(searchParams.get('channelId'));
  const statusParam = searchParams.get('status');
  const status = isStatus(statusParam) ? statusParam : undefined;
  const windowParam = searchParams.get('window');
  const span: PushWindow = isPushWindow(windowParam) ? windowParam : DEFAULT_WINDOW;
  const page = positive(searchParams.get('page')) ?? 1;
  const sizeParam = positive(searchParams.get('size')) ?? LOG_PAGE_SIZES[0];
  const size = LOG_PAGE_SIZES.includes(sizeParam) ? sizeParam : LOG_PAGE_SIZES[0];

  const query = useMemo(() => ({ channelId, status, window: span, page, size }), [channelId, status, span, page, size]);
  const log = usePushLog(query);
  const channels = useChannels({ window: DEFAULT_WINDOW, page: 1, size: 100 });
  const selector = useDeviceSelector();
  const channelNames = useMemo(() => new Map((channels.data?.list ?? []).map((c) => [c.id, c.name])), [channels.data]);
  const devices = useMemo(() => new Map((selector.data ?? []).map((d) => [d.poiId, d])), [selector.data]);

  /** Changes filters; any change but paging starts again at page 1. */
  const change = useCallback(
    (next: Record<string, string | undefined>) =>
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          if (!('page' in next)) params.delete('page');
          for (const [name, value] of Object.entries(next)) {
            if (value === undefined) params.delete(name);
            else params.set(name, value);
          }
          return params;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  const { ids: retrying, run: retry } = useRowMutation(useRetryDelivery().mutate);
  const onRetry = useCallback((entry: PushLogEntry) => retry(entry.id, entry.id, t('log.retried')), [retry, t]);

  const stats = channelId !== undefined ? log.data?.stats : undefined;

  return (
    <div className="fw-page fw-push">
      <PushHeader
        title={stats ? t('log.titleOf', { name: stats.name }) : title}
        subtitle={t('log.subtitle')}
        onBack={() => void navigate(paths.dataPush.root)}
      />
      <Flex vertical gap={16}>
        {stats && <ChannelStatsHeader channel={stats} />}
        <Card variant="borderless" className="fw-push__card">
          <Flex align="center" justify="space-between" wrap gap={12} className="fw-push__toolbar">
            <Flex align="center" wrap gap={8}>
              <Select<number | 'all'>
                value={channelId ?? 'all'}
                onChange={(next) => change({ channelId: next === 'all' ? undefined : String(next) })}
                options={[
                  { value: 'all', label: t('log.allChannels') },
                  ...(channels.data?.list ?? []).map((channel) => ({ value: channel.id, label: channel.name })),
                ]}
                popupMatchSelectWidth={false}
                className="fw-push-filter"
                aria-label={t('log.columns.channel')}
                data-testid="log-channel"
              />
              <Select<PushStatus | 'all'>
                value={status ?? 'all'}
                onChange={(next) => change({ status: next === 'all' ? undefined : next })}
                options={[
                  { value: 'all', label: t('log.allStatuses') },
                  ...PUSH_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
                ]}
                className="fw-push-filter"
                aria-label={t('log.columns.status')}
                data-testid="log-status"
              />
              <Button icon={<ReloadOutlined />} onClick={() => void log.refetch()} loading={log.isFetching && !log.isPending}>
                {t('log.refresh')}
              </Button>
            </Flex>
            <WindowSelector value={span} onChange={(next) => change({ window: next })} />
          </Flex>
          <ServerErrorAlert error={log.error} className="fw-push__error" />
          <PushLogTable
            entries={log.data?.list ?? []}
            total={log.data?.total ?? 0}
            loading={log.isPending || (log.isFetching && log.isPlaceholderData)}
            page={page}
            size={size}
            channelNames={channelNames}
            devices={devices}
            showChannel={channelId === undefined}
            retrying={retrying}
            onRetry={onRetry}
            onPageChange={(nextPage, nextSize) => change({ page: String(nextSize === size ? nextPage : 1), size: String(nextSize) })}
          />
        </Card>
      </Flex>
    </div>
  );
}
