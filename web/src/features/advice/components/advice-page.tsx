import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Typography } from 'antd';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FarmZoneNote } from '@/components/farm-zone-note';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { paths } from '@/config/paths';
import { useLang } from '@/lib/use-lang';
import { useReality, useStrategy, useTaskHistory, useToday } from '../api/get-advice';
import { useAdviceDevice, useAdviceDevices } from '../api/get-devices';
import { defaultLead, fieldFromSearch, searchOfField } from '../lib/field';
import { FieldPicker } from './field-picker';
import { RealityPanel } from './reality-panel';
import { StrategyPanel } from './strategy-panel';
import { TaskHistory } from './task-history';
import { TodayTasks } from './today-tasks';
import { useNames } from './use-names';
import './advice.css';

// The chat carries the markdown renderer and highlight.js: it loads after the page has drawn.
const ChatPanel = lazy(() => import('./chat-panel'));

/**
 * /apps/advice?device=&field=: the farm advice for a device and the other devices of its field —
 * today's tasks with their arithmetic and the farmer's answers, the field now with the readings
 * behind each fact, the season plan, the task history, and questions answered as they stream in.
 */
export function AdvicePage() {
  const { t } = useTranslation('advice');
  const lang = useLang();
  const [search, setSearch] = useSearchParams();
  const field = fieldFromSearch(search);
  const devices = useAdviceDevices('', lang);
  const lead = useAdviceDevice(field?.lead, lang);
  const today = useToday(field, lang);
  const reality = useReality(field, lang);
  const strategy = useStrategy(field, lang);
  const history = useTaskHistory(field?.lead ?? null, lang, today.dataUpdatedAt);
  const { known, nameOf } = useNames(devices.data, lead.data, reality.data);
  const first = devices.data ? defaultLead(devices.data) : undefined;

  // Opened without a device: the first soil device (where the tasks come from).
  useEffect(() => {
    if (!field && first) setSearch(searchOfField({ lead: first.id, others: [] }), { replace: true });
  }, [field, first, setSearch]);

  const refresh = () => Promise.all([today.refetch(), reality.refetch(), strategy.refetch()]);
  const deviceName = field ? nameOf(field.lead) : '';

  return (
    <div className="fw-page fw-advice" data-testid="advice">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <div>
          <Typography.Title level={4} className="fw-page__title">
            {t('title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('subtitle')}</Typography.Text>
        </div>
        <Flex align="center" gap={8} wrap>
          <FarmZoneNote />
          <Button icon={<ReloadOutlined />} onClick={() => void refresh()} loading={today.isFetching || reality.isFetching} disabled={!field}>
            {t('refresh')}
          </Button>
        </Flex>
      </Flex>
      <FieldPicker field={field} known={known} onChange={(next) => setSearch(searchOfField(next))} />
      <ServerErrorAlert error={devices.error} />
      {devices.data && devices.data.length === 0 && !field ? (
        <Card variant="borderless">
          <Empty description={t('picker.empty')}>
            <Link to={paths.devices}>{t('picker.toDevices')}</Link>
          </Empty>
        </Card>
      ) : field ? (
        <div className="fw-advice__grid">
          <div className="fw-advice__main">
            <TodayTasks tasks={today.data?.tasks} day={today.data?.day} nameOf={nameOf} loading={today.isPending} error={today.error} />
            <RealityPanel reality={reality.data} nameOf={nameOf} loading={reality.isPending} error={<ServerErrorAlert error={reality.error} />} />
            <StrategyPanel strategy={strategy.data} loading={strategy.isPending} error={<ServerErrorAlert error={strategy.error} />} />
            <TaskHistory tasks={history.data} deviceName={deviceName} loading={history.isPending} error={<ServerErrorAlert error={history.error} />} />
          </div>
          <aside className="fw-advice__side">
            <Card variant="borderless" title={t('chat.title')} className="fw-advice__chat">
              <Suspense fallback={<Card loading variant="borderless" />}>
                <ChatPanel key={search.toString()} field={field} deviceName={deviceName} />
              </Suspense>
            </Card>
          </aside>
        </div>
      ) : null}
    </div>
  );
}
