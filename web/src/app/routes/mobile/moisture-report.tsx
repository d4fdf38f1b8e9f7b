import { ErrorBlock, List, SpinLoading } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { generatePath, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useBriefings } from '@/features/briefing/api/briefings';
import { errorMessage } from '@/lib/api-client';
import { MobilePage } from '../../layouts/mobile-page';

/** The phone's list of briefings: open one to read its report. */
export default function MobileMoistureReportRoute() {
  const { t } = useTranslation('briefing');
  const navigate = useNavigate();
  const briefings = useBriefings({ page: 1, size: 50 });
  const list = briefings.data?.list ?? [];
  return (
    <MobilePage backTo={paths.mobile.profile}>
      {briefings.isLoading ? (
        <div className="fw-m-briefing__loading">
          <SpinLoading />
        </div>
      ) : briefings.error ? (
        <ErrorBlock status="default" title={errorMessage(briefings.error)} description="" />
      ) : list.length === 0 ? (
        <ErrorBlock status="empty" title={t('mobile.empty')} description="" />
      ) : (
        <List mode="card">
          {list.map((p) => (
            <List.Item
              key={p.configId}
              description={`${p.unitName} · ${t(`period.${p.period}`)} · ${t('count.devices', { count: p.zsDeviceIds.length })}`}
              onClick={() => void navigate(generatePath(paths.mobile.moistureReportOpen, { configId: String(p.configId) }))}
              data-testid={`m-briefing-${p.configId}`}
            >
              {p.name}
            </List.Item>
          ))}
        </List>
      )}
    </MobilePage>
  );
}
