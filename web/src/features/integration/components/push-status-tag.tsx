import { CheckCircleFilled, ClockCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PushStatus } from '../types';

const look: Record<PushStatus, { color: string; icon: React.ReactNode }> = {
  success: { color: 'success', icon: <CheckCircleFilled /> },
  fail: { color: 'error', icon: <CloseCircleFilled /> },
  pending: { color: 'warning', icon: <ClockCircleFilled /> },
};

export function PushStatusTag({ status }: { status: PushStatus }) {
  const { t } = useTranslation('integration');
  const { color, icon } = look[status] ?? look.pending;
  return (
    <Tag color={color} icon={icon} variant="outlined" data-testid={`status-${status}`}>
      {t(`status.${status}`)}
    </Tag>
  );
}
