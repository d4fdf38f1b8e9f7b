import { ClockCircleOutlined } from '@ant-design/icons';
import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { farmZoneLabel } from '@/lib/farm-time';

/** Says on which clock the times nearby are shown: the farm's zone, with its UTC offset. */
export function FarmZoneNote({ className }: { className?: string }) {
  const { t } = useTranslation();
  const zone = farmZoneLabel();
  return (
    <Tooltip title={t('time.farmZoneHint', { zone })}>
      <Typography.Text type="secondary" className={className} data-testid="farm-zone" tabIndex={0}>
        <ClockCircleOutlined /> {t('time.farmZone', { zone })}
      </Typography.Text>
    </Tooltip>
  );
}
