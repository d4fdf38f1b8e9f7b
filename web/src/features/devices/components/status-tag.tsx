import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { statusColor } from '../display';
import { DEVICE_STATUSES, type DeviceStatus } from '../types';

function isStatus(value: string): value is DeviceStatus {
  return (DEVICE_STATUSES as readonly string[]).includes(value);
}

/** A device's status as a coloured tag; a status the app does not know shows as the server names it. */
export function StatusTag({ status, name }: { status: string; name?: string }) {
  const { t } = useTranslation('devices');
  const label = isStatus(status) ? t(`status.${status}`) : name || status;
  return (
    <Tag color={statusColor(status)} variant="filled" className="fw-status-tag" data-status={status}>
      {label}
    </Tag>
  );
}
