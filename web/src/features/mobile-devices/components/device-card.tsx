import { Button } from 'antd-mobile';
import { CompassOutline, RightOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { MapDevice } from '@/features/devices/types';
import { useWeChat } from '@/features/wechat/hooks';
import { formatDateTime, formatRelativeTime, formatReportTime, MISSING } from '@/lib/format';
import { navigateLinks } from '@/lib/geo';
import { useOpenMobileDevice } from '@/lib/mobile-back';
import { StatusDot } from './status-dot';

/** A device tapped on the map: what it is, when it last reported, open it or navigate there. */
export function DeviceCard({ device, now }: { device: MapDevice; now: number }) {
  const { t } = useTranslation('devices');
  const open = useOpenMobileDevice();
  const wechat = useWeChat();
  const located = device.lng !== null && device.lat !== null;
  const links = located ? navigateLinks(device.lng as number, device.lat as number, device.name) : null;
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
          {wechat.ready ? (
            // Inside WeChat its own map, which offers the phone's navigation apps.
            <button
              type="button"
              className="fw-m-card__link"
              onClick={() => wechat.navigateTo({ lng: device.lng as number, lat: device.lat as number, name: device.name })}
            >
              {t('map.openMap')}
            </button>
          ) : (
            <>
              <a className="fw-m-card__link" href={links.amap} target="_blank" rel="noopener noreferrer">
                {t('map.amap')}
              </a>
              <a className="fw-m-card__link" href={links.baidu} target="_blank" rel="noopener noreferrer">
                {t('map.baidu')}
              </a>
            </>
          )}
        </div>
      )}
      <Button block color="primary" onClick={() => open(device)}>
        {t('map.openDetail')} <RightOutline />
      </Button>
    </section>
  );
}
