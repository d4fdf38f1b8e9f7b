import { ErrorBlock, Popup, SpinLoading } from 'antd-mobile';
import { Fragment, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MobileServerError } from '@/components/mobile-server-error';
import { useMapConfig } from '@/features/devices/api/get-map-config';
import { useMapDevices } from '@/features/devices/api/get-map-devices';
import { countGroups, placeDevices } from '@/features/devices/cluster-index';
import { DeviceMap, type GroupColors } from '@/features/devices/components/device-map';
import '@/features/devices/components/device-map.css';
import { filterMapDevices } from '@/features/devices/display';
import { MAP_GROUPS, type MapDevice } from '@/features/devices/types';
import { useThemeVariables } from '@/lib/theme';
import { useNow } from '@/lib/use-now';
import type { MobileDeviceState } from '../list-state';
import { DeviceCard } from './device-card';

export interface MobileDeviceMapProps {
  state: MobileDeviceState;
  /** A device to centre on and show (from the address). */
  focusId?: number;
}

/** Fills the screen down to the tab bar, however tall the filters above are. */
function useFillHeight() {
  const ref = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    const measure = () => {
      const element = ref.current;
      const scroller = element?.closest('.fw-mobile-tabs__body');
      if (!element || !scroller) return;
      const top = element.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
      setHeight(Math.max(240, scroller.clientHeight - top));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);
  return { ref, height };
}

/** The devices on a map, clustered; a tapped device opens a card at the bottom. */
export default function MobileDeviceMap({ state, focusId }: MobileDeviceMapProps) {
  const { t } = useTranslation('devices');
  // Phone screens are drawn without antd: the theme's colours come from its variables.
  const colors = useThemeVariables();
  const devices = useMapDevices();
  const config = useMapConfig();
  const now = useNow();
  const [picked, setPicked] = useState<MapDevice[]>([]);
  const { ref, height } = useFillHeight();

  const groupColors = useMemo<GroupColors>(
    () => ({ working: colors['--fw-success'], fault: colors['--fw-error'], notDeployed: colors['--fw-text-tertiary'] }),
    [colors],
  );
  const { nameOrSn, status, typeId } = state;
  const shown = useMemo(() => filterMapDevices(devices.data?.list ?? [], { nameOrSn, status, typeId }), [devices.data, nameOrSn, status, typeId]);
  const coords = config.data?.coords ?? 'wgs84';
  const { placed, unplaced } = useMemo(() => placeDevices(shown, coords), [shown, coords]);
  const counts = useMemo(() => countGroups(shown), [shown]);
  const clusterLabel = useCallback((count: number) => t('mobile.cluster', { count }), [t]);
  const fitKey = `${nameOrSn}|${status ?? ''}|${typeId ?? ''}|${coords}`;

  let body;
  if (devices.error || config.error) {
    body = <MobileServerError error={devices.error ?? config.error} />;
  } else if (!devices.data || !config.data) {
    body = (
      <div className="fw-m-map__loading">
        <SpinLoading />
      </div>
    );
  } else {
    body = (
      <DeviceMap
        placed={placed}
        config={config.data}
        colors={groupColors}
        surface={colors['--fw-bg-container']}
        fitKey={fitKey}
        focusId={focusId}
        now={now}
        clusterLabel={clusterLabel}
        onSelect={setPicked}
      >
        {() => (
          <>
            <ul className="fw-m-map__legend" aria-label={t('map.legend')} data-testid="map-legend">
              {MAP_GROUPS.map((group) => (
                <li key={group} data-group={group}>
                  <span className="fw-m-map__dot" style={{ background: groupColors[group] }} />
                  {t(`groups.${group}`)} {counts[group]}
                </li>
              ))}
            </ul>
            {(unplaced > 0 || state.tagId !== undefined) && (
              <div className="fw-m-map__note">
                {state.tagId !== undefined && <div>{t('map.filtersHint')}</div>}
                {unplaced > 0 && <div>{t('map.unplaced', { count: unplaced })}</div>}
              </div>
            )}
            {placed.length === 0 && <ErrorBlock status="empty" title={t('map.empty')} description="" className="fw-m-map__empty" />}
          </>
        )}
      </DeviceMap>
    );
  }

  return (
    <div
      ref={ref}
      className="fw-device-map fw-m-map"
      data-testid="device-map"
      style={{ height, ['--fw-map-bg' as string]: colors['--fw-fill'] }}
    >
      {body}
      <Popup visible={picked.length > 0} onMaskClick={() => setPicked([])} onClose={() => setPicked([])} bodyClassName="fw-m-card-sheet" showCloseButton>
        {picked.length > 1 && <div className="fw-m-card-sheet__count">{t('map.here', { count: picked.length })}</div>}
        {picked.map((device) => (
          <Fragment key={device.id}>
            <DeviceCard device={device} now={now} />
          </Fragment>
        ))}
      </Popup>
    </div>
  );
}
