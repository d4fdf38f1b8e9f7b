import { ActionSheet, List, NoticeBar, Tag } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useIndicator } from '@/features/poi/api/get-indicator';
import { useIntro } from '@/features/poi/api/get-intro';
import { useSales } from '@/features/poi/api/get-sales';
import type { DeviceInfo } from '@/features/poi/types';
import { farmTime } from '@/lib/farm-time';
import { formatDateTime, formatWithUnit, MISSING } from '@/lib/format';
import { useWeChat } from '@/features/wechat/hooks';
import { navigateLinks } from '@/lib/geo';
import { useLang } from '@/lib/use-lang';
import { CHARGE_HOURS, LOW_BATTERY_VOLTS, needsCharging } from '../lib/figures';
import { mobileDeviceBase } from '../lib/kind';
import { DeviceError, Loading } from './states';
import { useMobileDevice } from './use-device';

const day = (time: number | null | undefined) => (time ? farmTime(time).format('YYYY-MM-DD') : MISSING);

function Until({ time, expired, testId }: { time: number | null | undefined; expired: boolean | undefined; testId: string }) {
  const { t } = useTranslation('poi');
  if (!time) return <span data-testid={testId}>{MISSING}</span>;
  return (
    <span className="fw-mpoi-until" data-testid={testId}>
      {day(time)}{' '}
      <Tag color={expired ? 'danger' : 'success'} fill="outline">
        {expired ? t('info.expired') : t('info.valid')}
      </Tag>
    </span>
  );
}

function About({ device }: { device: DeviceInfo }) {
  const { t } = useTranslation(['mobilePoi', 'poi']);
  const lang = useLang();
  const navigate = useNavigate();
  // Carried along: the back arrows still lead to where the device was opened from.
  const { state } = useLocation();
  const intro = useIntro(device.id, lang).data;
  const sales = useSales(device.id).data;
  const indicator = useIndicator(device.id, lang).data;
  const [navigating, setNavigating] = useState(false);
  const wechat = useWeChat();
  // Inside WeChat its own map navigates (GCJ-02, as Chinese maps draw); elsewhere, or when WeChat
  // cannot, the 高德/百度 links.
  const startNavigation = () => {
    if (device.lng !== null && device.lat !== null && wechat.navigateTo({ lng: device.lng, lat: device.lat, name: device.name, address: device.location || '' })) return;
    setNavigating(true);
  };
  const battery = indicator?.battery ?? device.battery;
  // The server's advice when it gives one; the same SPEC §9 rule otherwise.
  const advice = indicator?.advice || (intro && needsCharging(battery, intro.solar) ? t('about.chargeAdvice', { volts: LOW_BATTERY_VOLTS, hours: CHARGE_HOURS }) : '');
  const located = device.lng !== null && device.lat !== null;
  const links = located ? navigateLinks(device.lng as number, device.lat as number, device.location || device.name) : null;
  const canRename = Boolean(device.right?.rename);

  return (
    <div className="fw-mpoi" data-testid="mpoi-about">
      {advice ? <NoticeBar content={advice} color="alert" wrap data-testid="mpoi-battery-advice" /> : null}
      <List mode="card" header={t('about.device')}>
        <List.Item extra={device.name} onClick={() => void navigate(`${mobileDeviceBase(device.hashId, device.id)}/about/profile`, { state })} description={canRename ? undefined : t('about.noRenameRight')} data-testid="mpoi-about-profile">
          {t('about.profile')}
        </List.Item>
        <List.Item extra={`${device.typeName}${device.model ? ` · ${device.model}` : ''}`}>{t('poi:info.type')}</List.Item>
        <List.Item extra={<span data-testid="mpoi-about-sn">{device.sn}</span>}>{t('poi:header.sn')}</List.Item>
        <List.Item extra={device.statusName}>{t('about.status')}</List.Item>
        <List.Item extra={intro ? t('poi:info.minutes', { count: intro.interval }) : MISSING}>{t('poi:info.interval')}</List.Item>
        {intro && intro.nodes.length > 0 && (
          <List.Item extra={intro.nodes.map((depth) => t('poi:depth', { depth })).join(t('poi:listSeparator'))}>{t('poi:info.nodes')}</List.Item>
        )}
      </List>
      <List mode="card" header={t('about.power')}>
        <List.Item
          extra={<span data-testid="mpoi-about-battery">{formatWithUnit(battery, 'V', 2)}</span>}
          description={intro ? (intro.solar ? t('about.solarHint') : t('about.cellHint', { volts: LOW_BATTERY_VOLTS, hours: CHARGE_HOURS })) : undefined}
        >
          {t('poi:header.battery')}
        </List.Item>
        <List.Item extra={formatWithUnit(indicator?.signal ?? device.signal, 'dBm', 0)}>{t('poi:header.signal')}</List.Item>
        <List.Item extra={indicator?.lastReportTime ?? device.lastReportTime ? formatDateTime(indicator?.lastReportTime ?? device.lastReportTime) : MISSING}>
          {t('poi:header.lastReport')}
        </List.Item>
      </List>
      <List mode="card" header={t('about.service')}>
        <List.Item extra={<span data-testid="mpoi-about-install">{day(sales?.installTime ?? device.installTime)}</span>}>{t('poi:info.installTime')}</List.Item>
        <List.Item extra={<Until time={sales?.serviceUntil} expired={sales?.serviceExpired} testId="mpoi-about-service" />}>{t('poi:info.serviceUntil')}</List.Item>
        <List.Item extra={<Until time={sales?.warrantyUntil} expired={sales?.warrantyExpired} testId="mpoi-about-warranty" />}>{t('poi:info.warrantyUntil')}</List.Item>
        <List.Item extra={day(sales?.registrationTime)}>{t('poi:info.registered')}</List.Item>
      </List>
      <List mode="card" header={t('about.place')}>
        <List.Item extra={device.location || MISSING}>{t('poi:header.location')}</List.Item>
        <List.Item extra={device.lat !== null && device.lng !== null ? `${device.lat.toFixed(5)}, ${device.lng.toFixed(5)}` : MISSING}>{t('poi:info.coordinates')}</List.Item>
        <List.Item extra={formatWithUnit(device.altitude, 'm', 1)}>{t('poi:info.altitude')}</List.Item>
        {links && (
          <List.Item onClick={startNavigation} data-testid="mpoi-navigate">
            {t('poi:header.navigate')}
          </List.Item>
        )}
      </List>
      {links && (
        <ActionSheet
          visible={navigating}
          onClose={() => setNavigating(false)}
          cancelText={t('about.cancel')}
          actions={[
            { key: 'amap', text: '高德地图', onClick: () => window.open(links.amap, '_blank', 'noopener') },
            { key: 'baidu', text: '百度地图', onClick: () => window.open(links.baidu, '_blank', 'noopener') },
          ]}
        />
      )}
    </div>
  );
}

/** …/about: what the device is, its power, service dates and place. */
export function MobileAboutPage() {
  const { info } = useMobileDevice();
  if (info.isPending) return <Loading />;
  if (info.isError) return <DeviceError error={info.error} />;
  return <About device={info.data} />;
}
