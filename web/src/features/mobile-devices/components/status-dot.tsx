import { useTranslation } from 'react-i18next';
import type { DeviceStatus } from '@/features/devices/types';

/** Tone of a status on the phone: online green, needs a look orange, broken red, the rest grey. */
export function statusTone(status: string): 'online' | 'warning' | 'danger' | 'idle' {
  if (status === 'online') return 'online';
  if (status === 'lowpower') return 'warning';
  if (status === 'fault' || status === 'repair') return 'danger';
  return 'idle';
}

/** A coloured dot and the status in words. */
export function StatusDot({ status }: { status: DeviceStatus }) {
  const { t } = useTranslation('devices');
  return (
    <span className={`fw-m-status fw-m-status--${statusTone(status)}`} data-status={status}>
      <span className="fw-m-status__dot" aria-hidden="true" />
      {t(`status.${status}`, { defaultValue: status })}
    </span>
  );
}
