import { PlusOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { paths } from '@/config/paths';
import { useDeleteChannel } from '@/features/integration/api/delete-channel';
import { useChannels } from '@/features/integration/api/get-channels';
import { useSwitchChannel } from '@/features/integration/api/switch-channel';
import { CHANNEL_PAGE_SIZES, ChannelTable } from '@/features/integration/components/channel-table';
import { PushEmpty } from '@/features/integration/components/push-empty';
import { WindowSelector } from '@/features/integration/components/window-selector';
import { useIdSet } from '@/features/integration/components/use-id-set';
import { DEFAULT_WINDOW, isPushWindow, type Channel, type PushWindow } from '@/features/integration/types';
import { errorMessage } from '@/lib/api-client';
import { useNotice } from '@/lib/notice';
import { usePageTitle } from '../../../route-handle';

export default function DataPushChannelsRoute() {
  const { t } = useTranslation('integration');
  const title = usePageTitle();
  const notice = useNotice();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const windowParam = searchParams.get('window');
  const span: PushWindow = isPushWindow(windowParam) ? windowParam : DEFAULT_WINDOW;
  const [paging, setPaging] = useState({ page: 1, size: CHANNEL_PAGE_SIZES[1] });
  const channels = useChannels({ window: span, ...paging });
  const toggling = useIdSet();
  const deleting = useIdSet();

  const switchChannel = useSwitchChannel();
  const onToggle = useCallback(
    (channel: Channel, enabled: boolean) => {
      toggling.add(channel.id);
      switchChannel.mutate(
        { id: channel.id, enabled },
        {
          onSuccess: () => notice.success(enabled ? t('channels.switchedOn') : t('channels.switchedOff')),
          onError: (error) => notice.error(errorMessage(error)),
          onSettled: () => toggling.remove(channel.id),
        },
      );
    },
    [switchChannel, notice, t, toggling],
  );

  const remove = useDeleteChannel();
  const onDelete = useCallback(
    (channel: Channel) => {
      deleting.add(channel.id);
      remove.mutate(channel.id, {
        onSuccess: () => notice.success(t('channels.deleted')),
        onError: (error) => notice.error(errorMessage(error)),
        onSettled: () => deleting.remove(channel.id),
      });
    },
    [remove, notice, t, deleting],
  );

  const onEdit = useCallback((channel: Channel) => void navigate(`${paths.dataPush.config}?id=${channel.id}`), [navigate]);
  const onLog = useCallback((channel: Channel) => void navigate(`${paths.dataPush.log}?channelId=${channel.id}&window=${span}`), [navigate, span]);

  const empty = channels.data !== undefined && channels.data.total === 0;

  return (
    <div className="fw-page fw-push">
      <Flex align="flex-start" justify="space-between" wrap gap={12} className="fw-push__header">
        <div>
          <Typography.Title level={3} className="fw-page__title fw-push__title">
            {title}
          </Typography.Title>
          <Typography.Text type="secondary" className="fw-push__subtitle">
            {t('channels.subtitle')}
          </Typography.Text>
        </div>
        <Flex gap={8} wrap>
          <Link to={paths.dataPush.help}>
            <Button icon={<QuestionCircleOutlined />}>{t('channels.help')}</Button>
          </Link>
          <Link to={paths.dataPush.log}>
            <Button>{t('channels.allLogs')}</Button>
          </Link>
          <Link to={paths.dataPush.config}>
            <Button type="primary" icon={<PlusOutlined />} data-testid="channel-new">
              {t('channels.new')}
            </Button>
          </Link>
        </Flex>
      </Flex>
      <Card variant="borderless" className="fw-push__card">
        <ServerErrorAlert error={channels.error} className="fw-push__error" />
        {empty ? (
          <PushEmpty newTo={paths.dataPush.config} helpTo={paths.dataPush.help} />
        ) : (
          <>
            <Flex align="center" justify="space-between" wrap gap={8} className="fw-push__toolbar">
              <Typography.Text type="secondary">{t('channels.windowLead')}</Typography.Text>
              <WindowSelector
                value={span}
                onChange={(next) => setSearchParams((current) => {
                  const params = new URLSearchParams(current);
                  params.set('window', next);
                  return params;
                }, { replace: true })}
              />
            </Flex>
            <ChannelTable
              channels={channels.data?.list ?? []}
              total={channels.data?.total ?? 0}
              loading={channels.isPending || (channels.isFetching && channels.isPlaceholderData)}
              page={paging.page}
              size={paging.size}
              toggling={toggling.ids}
              deleting={deleting.ids}
              onPageChange={(page, size) => setPaging({ page: size === paging.size ? page : 1, size })}
              onToggle={onToggle}
              onEdit={onEdit}
              onLog={onLog}
              onDelete={onDelete}
            />
          </>
        )}
      </Card>
    </div>
  );
}
