import {
  ClockCircleOutlined,
  CloudDownloadOutlined,
  DownOutlined,
  EditOutlined,
  EnvironmentOutlined,
  ThunderboltOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { Alert, Button, Card, Dropdown, Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelativeTime, formatReportTime, formatWithUnit, MISSING } from '@/lib/format';
import { navigateLinks } from '@/lib/geo';
import { signalBars } from '../lib/params';
import type { DeviceIndicator, DeviceInfo } from '../types';

const STATUS_COLORS: Record<string, string> = {
  online: 'success',
  lowpower: 'warning',
  fault: 'error',
  offline: 'default',
  repair: 'processing',
};

function SignalBars({ bars }: { bars: number | null }) {
  return (
    <span className="fw-poi-signal" aria-hidden>
      {[1, 2, 3, 4].map((bar) => (
        <span key={bar} className={bars !== null && bar <= bars ? 'fw-poi-signal__bar fw-poi-signal__bar--on' : 'fw-poi-signal__bar'} />
      ))}
    </span>
  );
}

/** 高德地图 and 百度地图 links for the device's place, opened in a new tab (SPEC.md §2). */
function NavigateMenu({ lng, lat, name }: { lng: number; lat: number; name: string }) {
  const { t } = useTranslation('poi');
  const links = navigateLinks(lng, lat, name);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          {
            key: 'amap',
            label: (
              <a href={links.amap} target="_blank" rel="noopener noreferrer">
                高德地图
              </a>
            ),
          },
          {
            key: 'baidu',
            label: (
              <a href={links.baidu} target="_blank" rel="noopener noreferrer">
                百度地图
              </a>
            ),
          },
        ],
      }}
    >
      <Button size="small" type="link" className="fw-poi-navigate">
        {t('header.navigate')} <DownOutlined />
      </Button>
    </Dropdown>
  );
}

function Fact({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="fw-poi-fact">
      <span className="fw-poi-fact__icon">{icon}</span>
      <div className="fw-poi-fact__body">
        <div className="fw-poi-fact__label">{label}</div>
        <div className="fw-poi-fact__value">{children}</div>
      </div>
    </div>
  );
}

interface DeviceHeaderProps {
  device: DeviceInfo;
  indicator: DeviceIndicator | undefined;
  onEdit?: () => void;
  onDownload: () => void;
  canExport: boolean;
  /** More buttons, placed first (the app adds sharing for owners). */
  actions?: ReactNode;
}

/** Who the device is and how it is doing: name, SN, type, status, power, signal, last report, place. */
export function DeviceHeader({ device, indicator, onEdit, onDownload, canExport, actions }: DeviceHeaderProps) {
  const { t } = useTranslation('poi');
  const battery = indicator?.battery ?? device.battery;
  const signal = indicator?.signal ?? device.signal;
  const lastReport = indicator?.lastReportTime ?? device.lastReportTime;
  const chargeVoltage = indicator?.chargeVoltage ?? device.chargeVoltage;
  const lowBattery = indicator?.lowBattery ?? device.lowBattery;
  const hasPlace = device.lng !== null && device.lat !== null;
  const coordinates = hasPlace ? `${device.lat!.toFixed(5)}, ${device.lng!.toFixed(5)}` : null;

  return (
    <Card variant="borderless" className="fw-poi-header">
      <div className="fw-poi-header__top">
        <div className="fw-poi-header__who">
          <div className="fw-poi-header__title-row">
            <Typography.Title level={3} className="fw-poi-header__name" data-testid="poi-device-name">
              {device.name}
            </Typography.Title>
            <Tag color={STATUS_COLORS[device.status] ?? 'default'} className="fw-poi-header__status">
              {device.statusName}
            </Tag>
            {device.slave && <Tag>{t('header.slave')}</Tag>}
          </div>
          <Typography.Text type="secondary" className="fw-poi-header__meta">
            {t('header.sn')} {device.sn}
            <span className="fw-poi-dot">·</span>
            {device.typeName}
            {device.model ? ` (${device.model})` : ''}
          </Typography.Text>
        </div>
        <div className="fw-poi-header__actions">
          {actions}
          {onEdit && (
            <Button icon={<EditOutlined />} onClick={onEdit}>
              {t('header.edit')}
            </Button>
          )}
          <Tooltip title={canExport ? undefined : t('download.noPermission')}>
            <Button type="primary" icon={<CloudDownloadOutlined />} onClick={onDownload} disabled={!canExport}>
              {t('header.download')}
            </Button>
          </Tooltip>
        </div>
      </div>

      <div className="fw-poi-facts">
        <Fact icon={<ThunderboltOutlined />} label={t('header.battery')}>
          <span className={lowBattery ? 'fw-poi-warn' : undefined}>{formatWithUnit(battery, 'V', 2)}</span>
          {chargeVoltage !== null && chargeVoltage !== undefined && chargeVoltage > 0 && (
            <Typography.Text type="secondary" className="fw-poi-fact__extra">
              {t('header.charging', { value: formatWithUnit(chargeVoltage, 'V', 2) })}
            </Typography.Text>
          )}
        </Fact>
        <Fact icon={<WifiOutlined />} label={t('header.signal')}>
          <SignalBars bars={signalBars(signal)} />
          {formatWithUnit(signal, 'dBm', 0)}
        </Fact>
        <Fact icon={<ClockCircleOutlined />} label={t('header.lastReport')}>
          <Tooltip title={formatDateTime(lastReport)}>
            <span data-testid="poi-last-report" className="fw-poi-fact__group">
              {formatReportTime(lastReport)}
              {lastReport ? (
                <Typography.Text type="secondary" className="fw-poi-fact__extra">
                  {formatRelativeTime(lastReport)}
                </Typography.Text>
              ) : null}
            </span>
          </Tooltip>
        </Fact>
        <Fact icon={<EnvironmentOutlined />} label={t('header.location')}>
          <span className="fw-poi-place">{device.location || coordinates || MISSING}</span>
          {device.location && coordinates && (
            <Typography.Text type="secondary" className="fw-poi-fact__extra">
              {coordinates}
            </Typography.Text>
          )}
          {hasPlace && <NavigateMenu lng={device.lng!} lat={device.lat!} name={device.name} />}
        </Fact>
      </div>

      {indicator?.advice ? (
        <Alert className="fw-poi-header__alert" type="warning" showIcon title={indicator.advice} role="alert" />
      ) : null}
    </Card>
  );
}
