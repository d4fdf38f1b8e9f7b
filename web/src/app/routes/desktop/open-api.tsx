import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Tabs } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useDeleteApp } from '@/features/integration/api/delete-app';
import { useApps } from '@/features/integration/api/get-apps';
import { usePublishApp } from '@/features/integration/api/publish-app';
import { ApiReference } from '@/features/integration/components/api-reference';
import { AppDrawer } from '@/features/integration/components/app-drawer';
import { AppTable } from '@/features/integration/components/app-table';
import { PushHeader } from '@/features/integration/components/push-header';
import type { OpenApp } from '@/features/integration/types';
import { PAGE_SIZES } from '@/lib/page';
import { useRowMutation } from '@/lib/use-row-mutation';
import { usePageTitle } from '../../route-handle';

type OpenApiTab = 'apps' | 'reference';

export default function OpenApiRoute() {
  const { t } = useTranslation('integration');
  const title = usePageTitle();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: OpenApiTab = searchParams.get('tab') === 'reference' ? 'reference' : 'apps';
  const [paging, setPaging] = useState({ page: 1, size: PAGE_SIZES[1] });
  const apps = useApps(paging);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const { ids: publishing, run: publish } = useRowMutation(usePublishApp().mutate);
  const { ids: deleting, run: remove } = useRowMutation(useDeleteApp().mutate);
  const onPublish = useCallback(
    (app: OpenApp, published: boolean) =>
      publish(app.id, { id: app.id, published }, published ? t('apps.publishedOn') : t('apps.publishedOff')),
    [publish, t],
  );
  const onDelete = useCallback((app: OpenApp) => remove(app.id, app.id, t('apps.deleted')), [remove, t]);
  const onEdit = useCallback((app: OpenApp) => setEditing(app.id), []);
  const empty = apps.data !== undefined && apps.data.total === 0;

  return (
    <div className="fw-page fw-push">
      <PushHeader
        title={title}
        subtitle={t('apps.subtitle')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="app-new">
            {t('apps.new')}
          </Button>
        }
      />
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
                      publishing={publishing}
                      deleting={deleting}
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
