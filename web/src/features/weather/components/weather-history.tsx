import { Card, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Panel, useDayColumns } from '@/components/weather-days';
import { useWeatherHistory } from '../api/get-weather-history';

/** A weather station's last 30 days (/apis/qi/data/history). */
export function WeatherHistoryCard({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const q = useWeatherHistory(deviceId);
  const columns = useDayColumns(true);
  const days = q.data ? [...q.data.days].reverse() : [];
  return (
    <Card variant="borderless" title={t('pages.historyTitle')} className="fw-poi-section" data-testid="poi-weather-history-card">
      <Panel loading={q.isPending} error={q.error} empty={days.length === 0} emptyText={t('pages.noDays')} testId="poi-weather-history">
        <Table rowKey="time" size="small" pagination={{ pageSize: 10, hideOnSinglePage: true }} scroll={{ x: 'max-content' }} columns={columns} dataSource={days} />
      </Panel>
    </Card>
  );
}

