import { AimOutlined, WarningOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Spin, theme, Tooltip, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useMapConfig } from '../api/get-map-config';
import { useMapDevices } from '../api/get-map-devices';
import { countGroups, placeDevices } from '../cluster-index';
import { filterMapDevices } from '../display';
import type { ListFilters } from '../list-query';
import { MAP_GROUPS } from '../types';
import { DeviceMap, fitDevices, type GroupColors } from './device-map';
import './device-map.css';

export interface DeviceMapViewProps {
  /** The list's filters; the map applies name or SN, status and type (it has no ownership or tags). */
  filters: ListFilters;
  focusId?: number;
  onFocusDone?: () => void;
}

/** The map view: every device placed on configured tiles, with a legend of the map groups. */
export default function DeviceMapView({ filters, focusId, onFocusDone }: DeviceMapViewProps) {
  const { t } = useTranslation('devices');
  const { token } = theme.useToken();
  const devices = useMapDevices();
  const config = useMapConfig();
  const [tiles, setTiles] = useState<{ failed: boolean; loaded: boolean }>({ failed: false, loaded: false });
  const [now] = useState(() => Date.now());

  const colors = useMemo<GroupColors>(
    () => ({ working: token.colorSuccess, fault: token.colorError, notDeployed: token.colorTextTertiary }),
    [token.colorSuccess, token.colorError, token.colorTextTertiary],
  );
  const { nameOrSn, status, typeId } = filters;
  const shown = useMemo(
    () => filterMapDevices(devices.data?.list ?? [], { nameOrSn, status, typeId }),
    [devices.data, nameOrSn, status, typeId],
  );
  const coords = config.data?.coords ?? 'wgs84';
  const { placed, unplaced } = useMemo(() => placeDevices(shown, coords), [shown, coords]);
  const counts = useMemo(() => countGroups(shown), [shown]);
  const clusterLabel = useCallback((count: number) => t('map.cluster', { count }), [t]);
  const fitKey = `${nameOrSn}|${status ?? ''}|${typeId ?? ''}|${coords}`;

  if (devices.error || config.error) return <ServerErrorAlert error={devices.error ?? config.error} />;
  if (!devices.data || !config.data) {
    return (
      <div className="fw-device-map fw-device-map--loading">
        <Spin />
      </div>
    );
  }

  return (
    <div className="fw-device-map" data-testid="device-map" style={{ ['--fw-map-bg' as string]: token.colorFillTertiary }}>
      <DeviceMap
        placed={placed}
        config={config.data}
        colors={colors}
        surface={token.colorBgContainer}
        fitKey={fitKey}
        focusId={focusId}
        now={now}
        clusterLabel={clusterLabel}
        onPopupClose={onFocusDone}
        onTilesFailed={() => setTiles((state) => (state.failed ? state : { ...state, failed: true }))}
        onTilesLoaded={() => setTiles((state) => (state.loaded ? state : { ...state, loaded: true }))}
      >
        {(map) => (
          <>
            <section className="fw-map-legend" aria-label={t('map.legend')} data-testid="map-legend">
              <Typography.Text strong className="fw-map-legend__title">
                {t('map.legend')}
              </Typography.Text>
              <ul>
                {MAP_GROUPS.map((group) => (
                  <li key={group} data-group={group}>
                    <span className="fw-map-legend__dot" style={{ background: colors[group] }} />
                    <span className="fw-map-legend__label">{t(`groups.${group}`)}</span>
                    <span className="fw-map-legend__count">{counts[group]}</span>
                  </li>
                ))}
              </ul>
              {unplaced > 0 && (
                <Typography.Text type="secondary" className="fw-map-legend__note">
                  {t('map.unplaced', { count: unplaced })}
                </Typography.Text>
              )}
            </section>
            <div className="fw-map-tools">
              <Tooltip title={t('map.fitAll')} placement="left">
                <Button icon={<AimOutlined />} aria-label={t('map.fitAll')} onClick={() => map && fitDevices(map, placed)} />
              </Tooltip>
            </div>
            {tiles.failed && !tiles.loaded && (
              <Alert
                className="fw-map-notice"
                type="warning"
                showIcon
                icon={<WarningOutlined />}
                title={t('map.tilesUnavailable')}
                data-testid="tiles-unavailable"
              />
            )}
            {placed.length === 0 && (
              <div className="fw-map-empty">
                <Empty description={t('map.empty')} />
              </div>
            )}
          </>
        )}
      </DeviceMap>
    </div>
  );
}
