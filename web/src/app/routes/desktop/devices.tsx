import { DownloadOutlined, PlusOutlined, ShareAltOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Segmented, Spin, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useExportDevices } from '@/features/devices/api/export-devices';
import { useDevices } from '@/features/devices/api/get-devices';
import { DeviceFilters } from '@/features/devices/components/device-filters';
import { DeviceTable } from '@/features/devices/components/device-table';
import {
  clearFilters,
  hasFilters,
  parseListState,
  toSearchParams,
  VIEWS,
  withFilters,
  type DeviceListState,
  type DeviceView,
  type ListFilters,
} from '@/features/devices/list-query';
import type { Device } from '@/features/devices/types';
import type { LinkKind, ShareDevice } from '@/features/sharing/types';
import { errorMessage } from '@/lib/api-client';
import { useNotice } from '@/lib/notice';
import { useNow } from '@/lib/use-now';
import { useWanted } from '@/lib/use-wanted';
import { usePageTitle } from '../../route-handle';

// Leaflet and the clustering index load only when the map is first shown.
const DeviceMapView = lazy(() => import('@/features/devices/components/device-map-view'));
// The rename and share dialogs load when first opened, not with the list.
const RenameDeviceModal = lazy(() =>
  import('@/features/devices/components/rename-device-modal').then((m) => ({ default: m.RenameDeviceModal })),
);
const AddDeviceModal = lazy(() =>
  import('@/features/devices/components/add-device-modal').then((m) => ({ default: m.AddDeviceModal })),
);
const ShareDialog = lazy(() => import('@/features/sharing/components/share-dialog').then((m) => ({ default: m.ShareDialog })));

export default function DevicesRoute() {
  const { t } = useTranslation('devices');
  const title = usePageTitle();
  const notice = useNotice();
  const now = useNow();
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useMemo(() => parseListState(searchParams), [searchParams]);
  const [renaming, setRenaming] = useState<Device | null>(null);
  // Checked rows, kept across pages so several pages' devices can be shared at once.
  const [selected, setSelected] = useState<ReadonlyMap<number, ShareDevice>>(new Map());
  const [sharing, setSharing] = useState<{ mode: LinkKind; devices: ShareDevice[] } | null>(null);
  const renameWanted = useWanted(renaming !== null);
  const [adding, setAdding] = useState(false);
  const addWanted = useWanted(adding);
  const shareWanted = useWanted(sharing !== null);

  const go = useCallback(
    (next: DeviceListState, replace = false) => setSearchParams(toSearchParams(next), { replace }),
    [setSearchParams],
  );

  const { view, focus, ...query } = state;
  const devices = useDevices(query, { enabled: view === 'list' });
  const exporting = useExportDevices({ onSuccess: () => notice.success(t('actions.exported')) });

  // A page past the end (the list shrank, or an old address): show the last page instead.
  const total = devices.data?.total;
  useEffect(() => {
    if (total === undefined || devices.isPlaceholderData) return;
    const last = Math.max(1, Math.ceil(total / state.size));
    if (state.page > last) go({ ...state, page: last }, true);
  }, [total, devices.isPlaceholderData, state, go]);

  const filters: ListFilters = useMemo(
    () => ({ nameOrSn: state.nameOrSn, status: state.status, typeId: state.typeId, belong: state.belong, tagId: state.tagId }),
    [state.nameOrSn, state.status, state.typeId, state.belong, state.tagId],
  );
  const onShowOnMap = useCallback((device: Device) => go({ ...state, view: 'map', focus: device.id }), [go, state]);
  const onSelect = useCallback(
    (ids: number[], rows: Device[]) =>
      setSelected((current) => {
        const byId = new Map(rows.filter(Boolean).map((device) => [device.id, device]));
        const next = new Map<number, ShareDevice>();
        for (const id of ids) {
          const device = byId.get(id);
          const known = device ? { poiId: device.id, name: device.name, sn: device.sn } : current.get(id);
          if (known) next.set(id, known);
        }
        return next;
      }),
    [],
  );
  const onShareOne = useCallback(
    (device: Device) => setSharing({ mode: 'grant', devices: [{ poiId: device.id, name: device.name, sn: device.sn }] }),
    [],
  );
  const selectedIds = useMemo(() => [...selected.keys()], [selected]);
  const shareSelected = (mode: LinkKind) => setSharing({ mode, devices: [...selected.values()] });
  const onFocusDone = useCallback(() => {
    if (state.focus !== undefined) go({ ...state, focus: undefined }, true);
  }, [go, state]);

  return (
    <div className="fw-page fw-page--wide fw-devices">
      <Flex align="center" justify="space-between" wrap gap={12} className="fw-devices__header">
        <Typography.Title level={3} className="fw-page__title fw-devices__title">
          {title}
        </Typography.Title>
        <Flex gap={12} align="center" wrap>
          {view === 'list' && (
            <Flex gap={8} align="center" className="fw-devices__share" data-testid="device-share-toolbar">
              {selected.size > 0 && (
                <>
                  <Typography.Text type="secondary">{t('selection.selected', { count: selected.size })}</Typography.Text>
                  <Button type="link" size="small" onClick={() => setSelected(new Map())}>
                    {t('selection.clear')}
                  </Button>
                </>
              )}
              <Tooltip title={selected.size > 0 ? undefined : t('actions.selectFirst')}>
                <Button icon={<ShareAltOutlined />} disabled={selected.size === 0} onClick={() => shareSelected('grant')}>
                  {t('actions.share')}
                </Button>
              </Tooltip>
              <Tooltip title={selected.size > 0 ? undefined : t('actions.selectFirst')}>
                <Button icon={<SwapOutlined />} disabled={selected.size === 0} onClick={() => shareSelected('transfer')}>
                  {t('actions.transfer')}
                </Button>
              </Tooltip>
            </Flex>
          )}
          <Segmented<DeviceView>
            aria-label={t('views.label')}
            value={view}
            onChange={(next) => go({ ...state, view: next, focus: undefined })}
            options={VIEWS.map((v) => ({ value: v, label: t(`views.${v}`) }))}
            data-testid="view-switch"
          />
          <Button
            icon={<DownloadOutlined />}
            loading={exporting.isPending}
            onClick={() => exporting.mutate(undefined, { onError: (error) => notice.error(errorMessage(error)) })}
          >
            {t('actions.export')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="add-device">
            {t('add.button')}
          </Button>
        </Flex>
      </Flex>
      <Card variant="borderless" className="fw-devices__card">
        <DeviceFilters
          value={filters}
          onChange={(changed) => go(withFilters(state, changed))}
          onClear={() => go(clearFilters(state))}
          canClear={hasFilters(state)}
          listOnly={view === 'list'}
        />
        {view === 'list' ? (
          <>
            <ServerErrorAlert error={devices.error} className="fw-devices__error" />
            <DeviceTable
              devices={devices.data?.list ?? []}
              total={devices.data?.total ?? 0}
              loading={devices.isPending || devices.isPlaceholderData}
              page={state.page}
              size={state.size}
              sort={state.sort}
              order={state.order}
              now={now}
              onPageChange={(page, size) => go({ ...state, page: size === state.size ? page : 1, size })}
              onSortChange={(sort, order) => go({ ...state, sort, order, page: 1 })}
              onRename={setRenaming}
              onShowOnMap={onShowOnMap}
              selectedIds={selectedIds}
              onSelect={onSelect}
              onShare={onShareOne}
            />
          </>
        ) : (
          <Suspense
            fallback={
              <div className="fw-device-map fw-device-map--loading">
                <Spin />
              </div>
            }
          >
            <DeviceMapView filters={filters} focusId={focus} onFocusDone={onFocusDone} />
          </Suspense>
        )}
      </Card>
      <Suspense fallback={null}>
        {renameWanted && <RenameDeviceModal device={renaming} onClose={() => setRenaming(null)} />}
        {addWanted && <AddDeviceModal open={adding} onClose={() => setAdding(false)} />}
        {shareWanted && (
          <ShareDialog
            open={sharing !== null}
            mode={sharing?.mode}
            devices={sharing?.devices ?? []}
            onClose={() => setSharing(null)}
          />
        )}
      </Suspense>
    </div>
  );
}
