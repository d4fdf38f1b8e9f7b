import { WarningFilled } from '@ant-design/icons';
import { theme, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/lib/format';
import { isLowBattery, withUnit } from '../display';

/** Battery voltage; under 3.2 V in the error colour with the charging advice (SPEC §9). */
export function BatteryCell({ volts }: { volts: number | null }) {
  const { t } = useTranslation('devices');
  const { token } = theme.useToken();
  const text = withUnit(volts, 'V');
  if (text === MISSING) return <Typography.Text type="secondary">{MISSING}</Typography.Text>;
  if (!isLowBattery(volts)) return <span className="fw-nowrap">{text}</span>;
  return (
    <Tooltip title={t('battery.advice')}>
      <span className="fw-battery-low fw-nowrap" style={{ color: token.colorError }} tabIndex={0} aria-label={`${text} ${t('battery.low')}`}>
        <WarningFilled /> {text}
      </span>
    </Tooltip>
  );
}
