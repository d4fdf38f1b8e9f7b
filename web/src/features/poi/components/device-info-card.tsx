import { Card, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatWithUnit, MISSING } from '@/lib/format';
import type { DeviceInfo, DeviceIntro, DeviceSales } from '../types';
import { farmTime } from '@/lib/farm-time';

function day(time: number | null | undefined): string {
  return time ? farmTime(time).format('YYYY-MM-DD') : MISSING;
}

/** What the device is and the terms it runs under: model, depths, interval, install, service, warranty. */
export function DeviceInfoCard({ device, intro, sales }: { device: DeviceInfo; intro?: DeviceIntro; sales?: DeviceSales }) {
  const { t } = useTranslation('poi');
  const until = (time: number | null | undefined, expired: boolean | undefined) =>
    time ? (
      <span className="fw-poi-nowrap">
        {day(time)}
        <Tag color={expired ? 'error' : 'success'} className="fw-poi-term">
          {expired ? t('info.expired') : t('info.valid')}
        </Tag>
      </span>
    ) : (
      MISSING
    );
  const items = [
    { key: 'type', label: t('info.type'), children: `${device.typeName}${device.model ? ` (${device.model})` : ''}` },
    { key: 'sn', label: t('header.sn'), children: device.sn },
    {
      key: 'interval',
      label: t('info.interval'),
      children: intro ? t('info.minutes', { count: intro.interval }) : MISSING,
    },
    ...(intro && intro.nodes.length
      ? [{ key: 'nodes', label: t('info.nodes'), children: intro.nodes.map((depth) => t('depth', { depth })).join(t('listSeparator')) }]
      : []),
    { key: 'power', label: t('info.power'), children: intro ? (intro.solar ? t('info.solar') : t('info.batteryPowered')) : MISSING },
    { key: 'install', label: t('info.installTime'), children: day(sales?.installTime ?? device.installTime) },
    { key: 'service', label: t('info.serviceUntil'), children: until(sales?.serviceUntil, sales?.serviceExpired) },
    { key: 'warranty', label: t('info.warrantyUntil'), children: until(sales?.warrantyUntil, sales?.warrantyExpired) },
    { key: 'registered', label: t('info.registered'), children: day(sales?.registrationTime) },
    { key: 'location', label: t('header.location'), children: device.location || MISSING },
    {
      key: 'coordinates',
      label: t('info.coordinates'),
      children: device.lat !== null && device.lng !== null ? `${device.lat.toFixed(5)}, ${device.lng.toFixed(5)}` : MISSING,
    },
    { key: 'altitude', label: t('info.altitude'), children: formatWithUnit(device.altitude, 'm', 1) },
  ];
  return (
    <Card variant="borderless" title={t('info.title')} className="fw-poi-section fw-card-fill" data-testid="poi-info">
      <Descriptions column={{ xs: 1, md: 2 }} size="small" items={items} />
    </Card>
  );
}
