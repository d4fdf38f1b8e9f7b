import { Button, Dialog, ErrorBlock, InfiniteScroll, List, PullToRefresh, Toast } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { mobileRealtimePath, mobileRealtimeTypes } from '@/config/paths';
import { getGrantedDevices } from '@/features/sharing/api/get-granted-devices';
import { getGrantedUsers } from '@/features/sharing/api/get-granted-users';
import { getSharedWithMe } from '@/features/sharing/api/get-shared-with-me';
import { useReturnDevice } from '@/features/sharing/api/return-device';
import { useRevokeGrantee } from '@/features/sharing/api/revoke-grantee';
import { useRevokeUser } from '@/features/sharing/api/revoke-user';
import type { DeviceRef } from '@/features/sharing/types';
import { errorMessage } from '@/lib/api-client';
import { formatReportTime } from '@/lib/format';
import { useInfiniteSharing } from '../api/use-infinite-sharing';
import { MobilePurviewTags } from './purview-tags';

/** Asks before a revocation; runs it and says how it went. */
function useConfirmedAction() {
  const { t } = useTranslation(['sharing', 'common']);
  return async ({ title, content, confirm, run, done }: { title: string; content: string; confirm: string; run: () => Promise<unknown>; done: string }) => {
    const ok = await Dialog.confirm({
      title,
      content,
      confirmText: <span className="fw-m-danger-text">{confirm}</span>,
      cancelText: t('common:actions.cancel'),
    });
    if (!ok) return;
    try {
      await run();
      Toast.show({ icon: 'success', content: done });
    } catch (error) {
      Toast.show({ icon: 'fail', content: errorMessage(error) });
    }
  };
}

function DeviceName({ device }: { device: DeviceRef }) {
  const type = (mobileRealtimeTypes as readonly string[]).includes(device.page) ? device.page : null;
  if (!type || !device.hashId) return <span className="fw-m-grant__device">{device.name}</span>;
  return (
    <Link className="fw-m-grant__device" to={mobileRealtimePath(device.hashId, String(device.poiId), type)}>
      {device.name}
    </Link>
  );
}

/** Pull to refresh, the rows, and more rows as the end comes into view. */
function Scroller<T>({ list, empty, children }: { list: ReturnType<typeof useInfiniteSharing<T>>; empty: string; children: (row: T) => ReactNode }) {
  const { t } = useTranslation();
  if (list.isError && list.rows.length === 0) {
    return (
      <ErrorBlock status="default" title={t('loadFailed')} description={errorMessage(list.error)}>
        <Button color="primary" onClick={() => void list.refetch()}>
          {t('actions.retry')}
        </Button>
      </ErrorBlock>
    );
  }
  return (
    <PullToRefresh onRefresh={() => list.refetch().then(() => undefined)}>
      {list.isSuccess && list.rows.length === 0 ? (
        <ErrorBlock status="empty" title={empty} description={null} className="fw-m-grant__empty" />
      ) : (
        <div className="fw-m-grant__list">{list.rows.map(children)}</div>
      )}
      {/* Said at the end of a list that took several pages; a short list needs no "no more". */}
      {(list.hasNextPage || (list.data?.pages.length ?? 0) > 1) && (
        <InfiniteScroll loadMore={() => list.fetchNextPage().then(() => undefined)} hasMore={list.hasNextPage} />
      )}
    </PullToRefresh>
  );
}

/** My shared devices, each with whoever has it; one person's access can be revoked. */
export function GrantedDevicesList() {
  const { t } = useTranslation('sharing');
  const list = useInfiniteSharing('granted-devices', getGrantedDevices);
  const revoke = useRevokeGrantee();
  const confirm = useConfirmedAction();
  return (
    <Scroller list={list} empty={t('mobile.emptyDevices')}>
      {(device) => (
        <List key={device.poiId} mode="card" className="fw-m-grant" data-testid="granted-device">
          <List.Item description={`${device.typeName} · ${device.sn}`} extra={t('mobile.sharedWith', { count: device.users.length })}>
            <DeviceName device={device} />
          </List.Item>
          {device.users.map((user) => (
            <List.Item
              key={user.uid}
              description={
                <div className="fw-m-grant__rights">
                  <MobilePurviewTags purview={user.purview} />
                </div>
              }
              extra={
                <Button
                  size="small"
                  color="danger"
                  fill="outline"
                  aria-label={t('manage.revokeOneLabel', { user: user.name, device: device.name })}
                  onClick={() =>
                    void confirm({
                      title: t('manage.revokeOneTitle'),
                      content: t('manage.revokeOneDescription', { user: user.name, device: device.name }),
                      confirm: t('manage.revoke'),
                      run: () => revoke.mutateAsync({ poiId: device.poiId, uid: user.uid }),
                      done: t('manage.revoked'),
                    })
                  }
                >
                  {t('manage.revoke')}
                </Button>
              }
            >
              <span className="fw-m-grant__user">{user.name}</span>
              <span className="fw-m-muted"> {user.accountNumber}</span>
            </List.Item>
          ))}
        </List>
      )}
    </Scroller>
  );
}

/** Everyone I share devices with; everything shared with one person can be revoked at once. */
export function GrantedUsersList() {
  const { t } = useTranslation('sharing');
  const list = useInfiniteSharing('granted-users', getGrantedUsers);
  const revoke = useRevokeUser();
  const confirm = useConfirmedAction();
  return (
    <Scroller list={list} empty={t('mobile.emptyUsers')}>
      {(user) => (
        <List key={user.uid} mode="card" className="fw-m-grant" data-testid="granted-user">
          <List.Item
            description={t('manage.account', { account: user.accountNumber })}
            extra={
              <Button
                size="small"
                color="danger"
                fill="outline"
                onClick={() =>
                  void confirm({
                    title: t('manage.revokeUserTitle', { user: user.name }),
                    content: t('manage.revokeUserDescription'),
                    confirm: t('manage.revokeAll'),
                    run: () => revoke.mutateAsync(user.uid),
                    done: t('manage.revoked'),
                  })
                }
              >
                {t('manage.revokeAll')}
              </Button>
            }
          >
            <span className="fw-m-grant__user">{user.name}</span>
          </List.Item>
          {user.devices.map((device) => (
            <List.Item
              key={device.poiId}
              description={
                <div className="fw-m-grant__rights">
                  <MobilePurviewTags purview={device.purview} />
                </div>
              }
              extra={<span className="fw-m-muted">{formatReportTime(device.grantTime)}</span>}
            >
              <DeviceName device={device} />
            </List.Item>
          ))}
        </List>
      )}
    </Scroller>
  );
}

/** Devices shared with me, with their owner and my rights; I can give one back. */
export function SharedWithMeList() {
  const { t } = useTranslation('sharing');
  const list = useInfiniteSharing('shared-with-me', getSharedWithMe);
  const giveBack = useReturnDevice();
  const confirm = useConfirmedAction();
  return (
    <Scroller list={list} empty={t('mobile.emptyShared')}>
      {(device) => (
        <List key={device.poiId} mode="card" className="fw-m-grant" data-testid="shared-device">
          <List.Item
            description={
              <>
                <div>
                  {t('mobile.from', { name: device.owner.name })} · {t('mobile.since', { time: formatReportTime(device.grantTime) })}
                </div>
                <div className="fw-m-grant__rights">
                  <MobilePurviewTags purview={device.purview} />
                </div>
              </>
            }
            extra={
              <Button
                size="small"
                fill="outline"
                onClick={() =>
                  void confirm({
                    title: t('manage.giveBackTitle', { device: device.name }),
                    content: t('manage.giveBackDescription', { owner: device.owner.name }),
                    confirm: t('manage.giveBack'),
                    run: () => giveBack.mutateAsync(device.poiId),
                    done: t('manage.givenBack'),
                  })
                }
              >
                {t('manage.giveBack')}
              </Button>
            }
          >
            <DeviceName device={device} />
            <span className="fw-m-muted"> {device.typeName}</span>
          </List.Item>
        </List>
      )}
    </Scroller>
  );
}
