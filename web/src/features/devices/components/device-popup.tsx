import { CompassOutlined, RightOutlined } from '@ant-design/icons';
import { Divider, Space, Typography } from 'antd';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatRelativeTime, formatReportTime, MISSING } from '@/lib/format';
import { navigateLinks } from '@/lib/geo';
import { deviceDetailPath } from '@/lib/detail-path';
import type { MapDevice } from '../types';
import { StatusTag } from './status-tag';

function DeviceSummary({ device, now }: { device: MapDevice; now: number }) {
  const { t } = useTranslation('devices');
  const path = deviceDetailPath(device);
  const links = device.lng !== null && device.lat !== null ? navigateLinks(device.lng, device.lat, device.name) : null;
  const reported = device.lastReportTime;
  return (
    <div className="fw-map-popup__device" data-device-id={device.id}>
      <div className="fw-map-popup__head">
        <Typography.Text strong className="fw-map-popup__name">
          {device.name}
        </Typography.Text>
        <StatusTag status={device.status} />
      </div>
      <Typography.Text type="secondary" className="fw-map-popup__sn">
        SN {device.sn}
      </Typography.Text>
      <div className="fw-map-popup__row">
        <Typography.Text type="secondary">{t('map.lastReport')}</Typography.Text>
        <span title={reported === null ? undefined : formatDateTime(reported)}>
          {reported === null ? MISSING : `${formatReportTime(reported, now)} · ${formatRelativeTime(reported, now)}`}
        </span>
      </div>
      {links && (
        <div className="fw-map-popup__row">
          <Typography.Text type="secondary">
            <CompassOutlined /> {t('map.navigate')}
          </Typography.Text>
          <Space size={12}>
            <a href={links.amap} target="_blank" rel="noopener noreferrer">
              {t('map.amap')}
            </a>
            <a href={links.baidu} target="_blank" rel="noopener noreferrer">
              {t('map.baidu')}
            </a>
          </Space>
        </div>
      )}
      {path && (
        <Link to={path} className="fw-map-popup__detail">
          {t('map.openDetail')} <RightOutlined />
        </Link>
      )}
    </div>
  );
}

/** What a map popup says about the device (or devices, when several share one spot). */
export function DevicePopup({ devices, now }: { devices: MapDevice[]; now: number }) {
  const { t } = useTranslation('devices');
  return (
    <div className="fw-map-popup">
      {devices.length > 1 && (
        <Typography.Text type="secondary" className="fw-map-popup__count">
          {t('map.here', { count: devices.length })}
        </Typography.Text>
      )}
      {devices.map((device, index) => (
        <Fragment key={device.id}>
          {index > 0 && <Divider className="fw-map-popup__divider" />}
          <DeviceSummary device={device} now={now} />
        </Fragment>
      ))}
    </div>
  );
}
