import { CheckOutline } from 'antd-mobile-icons';
import { DotLoading, ErrorBlock, List, Popup, SearchBar, Tabs } from 'antd-mobile';
import { lazy, Suspense, useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { MobileServerError } from '@/components/mobile-server-error';
import { useToday } from '@/features/advice/api/get-advice';
import { ADVICE_GROUPS, useAdviceDevice, useAdviceDevices } from '@/features/advice/api/get-devices';
import type { FieldChoice } from '@/features/advice/api/keys';
import { useNames } from '@/features/advice/components/use-names';
import { defaultLead, fieldFromSearch, searchOfField, sortForPicker } from '@/features/advice/lib/field';
import { openFirst } from '@/features/advice/lib/task-view';
import type { AdviceDevice } from '@/features/advice/types';
import { useLang } from '@/lib/use-lang';
import { MobileTaskCard } from './mobile-task-card';
import './mobile-advice.css';

// The chat carries the markdown renderer and highlight.js: loaded when its tab first opens.
const MobileChat = lazy(() => import('./mobile-chat'));

function Centered({ children }: { children: ReactNode }) {
  return <div className="fw-m-advice__center">{children}</div>;
}

/** The device list in a sheet: search by name or SN, tap one. */
function DeviceSheet({ open, current, onClose, onPick }: { open: boolean; current?: number; onClose: () => void; onPick: (device: AdviceDevice) => void }) {
  const { t } = useTranslation('advice');
  const lang = useLang();
  const [search, setSearch] = useState('');
  const devices = useAdviceDevices(useDeferredValue(search), lang);
  const sorted = sortForPicker(devices.data ?? []);
  return (
    <Popup visible={open} onMaskClick={onClose} onClose={onClose} bodyClassName="fw-m-advice__sheet" destroyOnClose>
      <div className="fw-m-advice__sheet-search">
        <SearchBar value={search} onChange={setSearch} placeholder={t('picker.devicePlaceholder')} aria-label={t('picker.device')} />
      </div>
      <div className="fw-m-advice__sheet-list">
        {devices.isPending ? (
          <Centered>
            <DotLoading color="primary" />
          </Centered>
        ) : sorted.length === 0 ? (
          <ErrorBlock status="empty" title={t('picker.none')} description="" />
        ) : (
          ADVICE_GROUPS.filter((group) => sorted.some((d) => d.category === group)).map((group) => (
            <List key={group} header={t(`picker.group.${group}`)}>
              {sorted
                .filter((d) => d.category === group)
                .map((d) => (
                  <List.Item key={d.id} description={`${d.typeName} · ${d.sn}`} extra={d.id === current ? <CheckOutline /> : undefined} onClick={() => onPick(d)} data-testid="advice-device-option">
                    {d.name}
                  </List.Item>
                ))}
            </List>
          ))
        )}
      </div>
    </Popup>
  );
}

function TasksTab({ field, nameOf }: { field: FieldChoice; nameOf: (id: number) => string }) {
  const { t } = useTranslation('advice');
  const lang = useLang();
  const today = useToday(field, lang);
  if (today.isPending) {
    return (
      <Centered>
        <DotLoading color="primary" />
      </Centered>
    );
  }
  if (today.error) return <MobileServerError error={today.error} />;
  const tasks = openFirst(today.data.tasks);
  return (
    <div data-testid="advice-today">
      <div className="fw-m-advice__day">{t('today.titleDay', { day: today.data.day })}</div>
      {tasks.length === 0 ? (
        <ErrorBlock status="empty" title={t('today.none')} description={t('today.noneDetail')} />
      ) : (
        tasks.map((task) => <MobileTaskCard key={`${task.id}-${task.status}`} task={task} nameOf={nameOf} />)
      )}
    </div>
  );
}

/**
 * /apps/mobile/advice?device=: the phone's farm advice — today's tasks to answer in the field, and
 * questions about it.
 */
export function MobileAdvicePage() {
  const { t } = useTranslation('advice');
  const lang = useLang();
  const [search, setSearch] = useSearchParams();
  // Kept when the device changes: the back arrow still leads where the page was opened from.
  const { state } = useLocation();
  const field = fieldFromSearch(search);
  const devices = useAdviceDevices('', lang);
  const lead = useAdviceDevice(field?.lead, lang);
  const { nameOf } = useNames(devices.data, lead.data, undefined);
  const [choosing, setChoosing] = useState(false);
  const [tab, setTab] = useState(search.get('tab') === 'chat' ? 'chat' : 'tasks');
  const first = devices.data ? defaultLead(devices.data) : undefined;

  useEffect(() => {
    if (!field && first) setSearch(searchOfField({ lead: first.id, others: [] }), { replace: true, state });
  }, [field, first, setSearch, state]);

  const current = field ? (devices.data?.find((d) => d.id === field.lead) ?? lead.data) : undefined;
  const body = !field ? (
    devices.isPending ? (
      <Centered>
        <DotLoading color="primary" />
      </Centered>
    ) : devices.error ? (
      <MobileServerError error={devices.error} />
    ) : (
      <ErrorBlock status="empty" title={t('picker.empty')} description="" />
    )
  ) : (
    <>
      <List mode="card" className="fw-m-advice__device">
        <List.Item onClick={() => setChoosing(true)} extra={current?.typeName} description={t('picker.change')} data-testid="advice-device">
          {current?.name ?? nameOf(field.lead)}
        </List.Item>
      </List>
      <Tabs activeKey={tab} onChange={setTab} className="fw-m-advice__tabs">
        <Tabs.Tab title={t('today.title')} key="tasks">
          <TasksTab field={field} nameOf={nameOf} />
        </Tabs.Tab>
        <Tabs.Tab title={t('chat.title')} key="chat">
          <Suspense
            fallback={
              <Centered>
                <DotLoading color="primary" />
              </Centered>
            }
          >
            <MobileChat key={search.get('device') ?? ''} field={field} deviceName={current?.name ?? nameOf(field.lead)} />
          </Suspense>
        </Tabs.Tab>
      </Tabs>
    </>
  );

  return (
    <div className="fw-m-advice" data-testid="advice">
      {body}
      <DeviceSheet
        open={choosing}
        current={field?.lead}
        onClose={() => setChoosing(false)}
        onPick={(d) => {
          setChoosing(false);
          setSearch(searchOfField({ lead: d.id, others: [] }), { replace: true, state });
        }}
      />
    </div>
  );
}
