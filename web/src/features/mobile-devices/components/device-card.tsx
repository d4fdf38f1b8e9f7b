import { Button } from 'antd-mobile';
import { CompassOutline, RightOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { MapDevice } from '@/features/devices/types';
import { formatDateTime, formatRelativeTime, formatReportTime, MISSING } from '@/lib/format';
import { navigateLinks } from '@/lib/geo';
import { useOpenMobileDevice } from '@/lib/mobile-back';
import { StatusDot } from './status-dot';

/** A device tapped on the map: what it is, when it last reported, open it or navigate there. */
export function DeviceCard({ device, now }: { device: MapDevice; now: number }) {
  const { t } = useTranslation('devices');
  const open = useOpenMobileDevice();
  const links = device.lng !== null && device.lat !== null ? navigateLinks(device.lng, device.lat, device.name) : null;
  const reported = device.lastReportTime;
  return (
    <section className="fw-m-card" data-testid="mobile-device-card" data-device-id={device.id} aria-label={device.name}>
      <div className="fw-m-card__head">
        <div className="fw-m-card__name">{device.name}</div>
        <StatusDot status={device.status} />
      </div>
      <div className="fw-m-card__line">
        {t(`types.${device.typeId}`, { defaultValue: '' })} · SN {device.sn}
      </div>
      <div className="fw-m-card__line" title={reported === null ? undefined : formatDateTime(reported)}>
        {t('map.lastReport')}: {reported === null ? MISSING : `${formatReportTime(reported, now)} · ${formatRelativeTime(reported, now)}`}
      </div>
      {links && (
        <div className="fw-m-card__navigate">
          <span className="fw-m-card__label">
            <CompassOutline /> {t('map.navigate')}
          </span>
          <a className="fw-m-card__link" href={links.amap} target="_blank" rel="noopener noreferrer">
            {t('map.amap')}
          </a>
          <a className="fw-m-card__link" href={links.baidu} target="_blank" rel="noopener noreferrer">
            {t('map.baidu')}
          </a>
        </div>
      )}
      <Button block color="primary" onClick={() => open(device)}>
        {t('map.openDetail')} <RightOutline />
      </Button>
    </section>
  );
}
