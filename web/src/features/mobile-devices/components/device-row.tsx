import { List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { isLowBattery, withUnit } from '@/features/devices/display';
import type { Device } from '@/features/devices/types';
import { formatDateTime, formatReportTime, MISSING } from '@/lib/format';
import { useOpenMobileDevice } from '@/lib/mobile-back';
import { SignalBars } from './signal-bars';
import { StatusDot } from './status-dot';

interface DeviceRowProps {
  device: Device;
  now: number;
  /** A tag was tapped: the list narrows to it. */
  onTag: (tagId: number) => void;
  activeTagId?: number;
}

/** One device as a phone lists it: name and tags, type, status, last report, battery and signal. */
export function DeviceRow({ device, now, onTag, activeTagId }: DeviceRowProps) {
  const { t } = useTranslation('devices');
  const open = useOpenMobileDevice();
  const battery = withUnit(device.battery, 'V');
  const low = device.lowBattery || isLowBattery(device.battery);
  const reported = device.lastReportTime;
  const type = t(`types.${device.typeId}`, { defaultValue: device.typeName });

  return (
    <List.Item
      className="fw-m-device"
      data-testid="mobile-device-row"
      data-device-id={device.id}
      onClick={() => open(device)}
      arrowIcon
      description={
        <div className="fw-m-device__meta">
          <span className="fw-m-device__type">{type}</span>
          <span className="fw-m-device__sn">SN {device.sn}</span>
        </div>
      }
      extra={
        <div className="fw-m-device__side">
          <StatusDot status={device.status} />
          <span className="fw-m-device__time" title={reported === null ? undefined : formatDateTime(reported)}>
            {reported === null ? MISSING : formatReportTime(reported, now)}
          </span>
          <span className="fw-m-device__power">
            <span
              className={low ? 'fw-m-device__battery fw-m-device__battery--low' : 'fw-m-device__battery'}
              aria-label={low ? `${battery} ${t('battery.low')}` : battery}
            >
              {battery}
            </span>
            <SignalBars dbm={device.signal} />
          </span>
        </div>
      }
    >
      <div className="fw-m-device__name">
        <span>{device.name}</span>
        {device.belong === 'shared' && (
          <Tag color="primary" fill="outline" className="fw-m-device__badge">
            {t('badges.shared')}
          </Tag>
        )}
      </div>
      {device.tags.length > 0 && (
        <div className="fw-m-device__tags">
          {device.tags.map((tag) => (
            <Tag
              key={tag.tagId}
              round
              color={tag.tagId === activeTagId ? 'primary' : 'default'}
              fill={tag.tagId === activeTagId ? 'solid' : 'outline'}
              className="fw-m-device__tag"
              onClick={(event) => {
                event.stopPropagation();
                onTag(tag.tagId);
              }}
            >
              {tag.tag}
            </Tag>
          ))}
        </div>
      )}
    </List.Item>
  );
}
