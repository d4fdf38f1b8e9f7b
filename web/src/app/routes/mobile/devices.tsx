import { Button } from 'antd-mobile';
import { EnvironmentOutline, UnorderedListOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AddDeviceButton } from '@/features/mobile-devices/components/add-device-button';
import { DeviceFilterBar } from '@/features/mobile-devices/components/device-filter-bar';
import { DeviceList } from '@/features/mobile-devices/components/device-list';
import '@/features/mobile-devices/components/mobile-devices.css';
import {
  clearMobileFilters,
  hasMobileFilters,
  parseMobileState,
  toMobileSearch,
  type MobileDeviceState,
} from '@/features/mobile-devices/list-state';
import { MobilePage } from '../../layouts/mobile-page';

// Leaflet and the tiles load only when the map is opened.
const MobileDeviceMap = lazy(() => import('@/features/mobile-devices/components/device-map-view'));

export default function MobileDevicesRoute() {
  const { t } = useTranslation('devices');
  const [params, setParams] = useSearchParams();
  const state = parseMobileState(params);
  const focus = Number(params.get('focus')) || undefined;

  const go = useCallback(
    (next: MobileDeviceState) => setParams(toMobileSearch(next), { replace: true }),
    [setParams],
  );
  const change = useCallback(
    (filters: Partial<MobileDeviceState>) => setParams((current) => toMobileSearch({ ...parseMobileState(current), ...filters }), { replace: true }),
    [setParams],
  );
  const map = state.view === 'map';

  return (
    <MobilePage
      right={
        <>
          <AddDeviceButton />
          <Button
          fill="none"
          size="small"
          className="fw-m-view-toggle"
          data-testid="view-toggle"
          onClick={() => change({ view: map ? 'list' : 'map' })}
        >
          {map ? <UnorderedListOutline /> : <EnvironmentOutline />} {map ? t('views.list') : t('views.map')}
          </Button>
        </>
      }
    >
      <DeviceFilterBar state={state} onChange={change} />
      {map ? (
        <Suspense fallback={null}>
          <MobileDeviceMap state={state} focusId={focus} />
        </Suspense>
      ) : (
        <DeviceList
          filters={{ nameOrSn: state.nameOrSn, status: state.status, typeId: state.typeId, tagId: state.tagId }}
          filtered={hasMobileFilters(state)}
          onTag={(tagId) => change({ tagId })}
          onClear={() => go(clearMobileFilters(state))}
        />
      )}
    </MobilePage>
  );
}
