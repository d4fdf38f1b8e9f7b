import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Tabs, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useDeleteApp } from '@/features/integration/api/delete-app';
import { useApps } from '@/features/integration/api/get-apps';
import { usePublishApp } from '@/features/integration/api/publish-app';
import { ApiReference } from '@/features/integration/components/api-reference';
import { AppDrawer } from '@/features/integration/components/app-drawer';
import { APP_PAGE_SIZES, AppTable } from '@/features/integration/components/app-table';
import { useIdSet } from '@/features/integration/components/use-id-set';
import type { OpenApp } from '@/features/integration/types';
import { errorMessage } from '@/lib/api-client';
import { useNotice } from '@/lib/notice';
import { usePageTitle } from '../../route-handle';

type OpenApiTab = 'apps' | 'reference';

export default function OpenApiRoute() {
  const { t } = useTranslation('integration');
  const title = usePageTitle();
  const notice = useNotice();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: OpenApiTab = searchParams.get('tab') === 'reference' ? 'reference' : 'apps';
  const [paging, setPaging] = useState({ page: 1, size: APP_PAGE_SIZES[1] });
  const apps = useApps(paging);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const publishing = useIdSet();
  const deleting = useIdSet();

  const publish = usePublishApp();
  const onPublish = useCallback(
    (app: OpenApp, published: boolean) => {
      publishing.add(app.id);
      publish.mutate(
        { id: app.id, published },
        {
          onSuccess: () => notice.success(published ? t('apps.publishedOn') : t('apps.publishedOff')),
          onError: (error) => notice.error(errorMessage(error)),
          onSettled: () => publishing.remove(app.id),
        },
      );
    },
    [publish, publishing, notice, t],
  );
  const remove = useDeleteApp();
  const onDelete = useCallback(
    (app: OpenApp) => {
      deleting.add(app.id);
      remove.mutate(app.id, {
        onSuccess: () => notice.success(t('apps.deleted')),
        onError: (error) => notice.error(errorMessage(error)),
        onSettled: () => deleting.remove(app.id),
      });
    },
    [remove, deleting, notice, t],
  );
  const onEdit = useCallback((app: OpenApp) => setEditing(app.id), []);
  const empty = apps.data !== undefined && apps.data.total === 0;

  return (
    <div className="fw-page fw-push">
      <Flex align="flex-start" justify="space-between" wrap gap={12} className="fw-push__header">
        <div>
          <Typography.Title level={3} className="fw-page__title fw-push__title">
            {title}
          </Typography.Title>
          <Typography.Text type="secondary" className="fw-push__subtitle">
            {t('apps.subtitle')}
          </Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="app-new">
          {t('apps.new')}
        </Button>
      </Flex>
      <Card variant="borderless" className="fw-push__card">
        <Tabs
          activeKey={tab}
          onChange={(key) => setSearchParams(key === 'apps' ? {} : { tab: key }, { replace: true })}
          items={[
            {
              key: 'apps',
              label: t('apps.tab'),
              children: (
                <>
                  <ServerErrorAlert error={apps.error} className="fw-push__error" />
                  {empty ? (
                    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('apps.empty')} className="fw-push-empty" data-testid="apps-empty">
                      <Flex gap={8} justify="center">
                        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
                          {t('apps.new')}
                        </Button>
                        <Button onClick={() => setSearchParams({ tab: 'reference' }, { replace: true })}>{t('apps.toReference')}</Button>
                      </Flex>
                    </Empty>
                  ) : (
                    <AppTable
                      apps={apps.data?.list ?? []}
                      total={apps.data?.total ?? 0}
                      loading={apps.isPending || (apps.isFetching && apps.isPlaceholderData)}
                      page={paging.page}
                      size={paging.size}
                      publishing={publishing.ids}
                      deleting={deleting.ids}
                      onPageChange={(page, size) => setPaging({ page: size === paging.size ? page : 1, size })}
                      onPublish={onPublish}
                      onEdit={onEdit}
                      onDelete={onDelete}
                    />
                  )}
                </>
              ),
            },
            { key: 'reference', label: t('apps.referenceTab'), children: <ApiReference /> },
          ]}
        />
      </Card>
      <AppDrawer target={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
