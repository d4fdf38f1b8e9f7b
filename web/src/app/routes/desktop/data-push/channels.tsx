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
import { ChannelTable } from '@/features/integration/components/channel-table';
import { PushEmpty } from '@/features/integration/components/push-empty';
import { PushHeader } from '@/features/integration/components/push-header';
import { WindowSelector } from '@/features/integration/components/window-selector';
import { DEFAULT_WINDOW, isPushWindow, type Channel, type PushWindow } from '@/features/integration/types';
import { PAGE_SIZES } from '@/lib/page';
import { useRowMutation } from '@/lib/use-row-mutation';
import { usePageTitle } from '../../../route-handle';

export default function DataPushChannelsRoute() {
  const { t } = useTranslation('integration');
  const title = usePageTitle();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const windowParam = searchParams.get('window');
  const span: PushWindow = isPushWindow(windowParam) ? windowParam : DEFAULT_WINDOW;
  const [paging, setPaging] = useState({ page: 1, size: PAGE_SIZES[1] });
  const channels = useChannels({ window: span, ...paging });
  const { ids: toggling, run: toggle } = useRowMutation(useSwitchChannel().mutate);
  const { ids: deleting, run: remove } = useRowMutation(useDeleteChannel().mutate);
  const onToggle = useCallback(
    (channel: Channel, enabled: boolean) =>
      toggle(channel.id, { id: channel.id, enabled }, enabled ? t('channels.switchedOn') : t('channels.switchedOff')),
    [toggle, t],
  );
  const onDelete = useCallback((channel: Channel) => remove(channel.id, channel.id, t('channels.deleted')), [remove, t]);
  const onEdit = useCallback((channel: Channel) => void navigate(`${paths.dataPush.config}?id=${channel.id}`), [navigate]);
  const onLog = useCallback((channel: Channel) => void navigate(`${paths.dataPush.log}?channelId=${channel.id}&window=${span}`), [navigate, span]);

  const empty = channels.data !== undefined && channels.data.total === 0;

  return (
    <div className="fw-page fw-push">
      <PushHeader
        title={title}
        subtitle={t('channels.subtitle')}
        actions={
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
        }
      />
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
              toggling={toggling}
              deleting={deleting}
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
