import { theme, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/lib/format';
import { signalLevel, withUnit } from '../display';

const BARS = [1, 2, 3, 4] as const;

/** Signal strength as four bars and its dBm value. */
export function SignalCell({ dbm }: { dbm: number | null }) {
  const { t } = useTranslation('devices');
  const { token } = theme.useToken();
  const text = withUnit(dbm, 'dBm');
  if (text === MISSING) return <Typography.Text type="secondary">{MISSING}</Typography.Text>;
  const level = signalLevel(dbm);
  const color = level >= 3 ? token.colorSuccess : level === 2 ? token.colorWarning : token.colorError;
  const label = t('signal.tooltip', { level: t(`signal.levels.${level}`) });
  return (
    <Tooltip title={label}>
      <span className="fw-signal fw-nowrap" aria-label={`${label} (${text})`} data-level={level}>
        <svg width="14" height="12" viewBox="0 0 14 12" aria-hidden="true">
          {BARS.map((bar) => (
            <rect
              key={bar}
              x={(bar - 1) * 3.6}
              y={12 - bar * 3}
              width="2.6"
              height={bar * 3}
              rx="0.6"
              fill={bar <= level ? color : token.colorFillSecondary}
            />
          ))}
        </svg>
        <span>{text}</span>
      </span>
    </Tooltip>
  );
}
