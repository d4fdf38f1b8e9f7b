import { useTranslation } from 'react-i18next';
import { signalLevel } from '@/features/devices/display';

const BARS = [1, 2, 3, 4] as const;

/** Cellular signal as four bars, readable at a glance; the level is spoken to screen readers. */
export function SignalBars({ dbm }: { dbm: number | null }) {
  const { t } = useTranslation('devices');
  const level = dbm === null ? 0 : signalLevel(dbm);
  const tone = dbm === null ? 'none' : level >= 3 ? 'good' : level === 2 ? 'fair' : 'poor';
  const label = dbm === null ? t('signal.levels.0') : t('signal.tooltip', { level: t(`signal.levels.${level}`) });
  return (
    <span className={`fw-m-signal fw-m-signal--${tone}`} role="img" aria-label={label} data-level={level}>
      <svg width="14" height="12" viewBox="0 0 14 12" aria-hidden="true">
        {BARS.map((bar) => (
          <rect
            key={bar}
            x={(bar - 1) * 3.6}
            y={12 - bar * 3}
            width="2.6"
            height={bar * 3}
            rx="0.6"
            className={bar <= level ? 'fw-m-signal__on' : 'fw-m-signal__off'}
          />
        ))}
      </svg>
    </span>
  );
}
