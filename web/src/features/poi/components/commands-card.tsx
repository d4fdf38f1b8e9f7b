import { SendOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, InputNumber, Segmented, Table, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { formatDateTime, formatReportTime } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import { useLang } from '@/lib/use-lang';
import {
  isOpen,
  poiCommandTarget,
  useCommandDefs,
  useCommands,
  useSendCommand,
  type Command,
  type CommandDef,
  type CommandState,
  type CommandTarget,
} from '../api/commands';

/** The report interval is sent by saving the settings, not from this panel. */
const FROM_SETTINGS = 'reportInterval';

const STATE_COLOR: Record<CommandState, string> = {
  submitted: 'default',
  pending: 'processing',
  effective: 'success',
  failed: 'error',
  expired: 'warning',
};

const PAGE_SIZE = 5;

/**
 * The device's controls (valve, camera): a button per command, a small form for those that take a
 * value, and the commands sent with their states, which follow the device until it confirms each.
 * Hidden for a device whose type has no controls besides the report interval.
 */
export function CommandsCard({ deviceId }: { deviceId: number }) {
  const target = useMemo(() => poiCommandTarget(deviceId), [deviceId]);
  return <DeviceCommands target={target} />;
}

interface DeviceCommandsProps {
  target: CommandTarget;
  /** Whether the record says who sent each command (not on the portal: its visitors see what was done). */
  showBy?: boolean;
  /** Said instead of the usual note when the commands may not be sent. */
  noRightNote?: string;
  /** Whether the record is shown to those who may not send (the portal's visitors see it). */
  recordAlways?: boolean;
}

/** The controls and the record of the device `target` names, on its page or its portal. */
export function DeviceCommands({ target, showBy = true, noRightNote, recordAlways = false }: DeviceCommandsProps) {
  const { t } = useTranslation('poi');
  const lang = useLang();
  const defs = useCommandDefs(target, lang);
  const controls = (defs.data?.commands ?? []).filter((c) => c.name !== FROM_SETTINGS);
  const allowed = Boolean(defs.data?.allowed);
  const showRecord = allowed || recordAlways;
  const [page, setPage] = useState(1);
  const list = useCommands(target, lang, page, PAGE_SIZE, showRecord && controls.length > 0);
  useFollowUp(target, list.data?.list);
  if (defs.error) return <ServerErrorAlert error={defs.error} />;
  if (controls.length === 0) return null;
  return (
    <Card variant="borderless" title={t('controls.title')} className="fw-poi-section" data-testid="poi-controls">
      {!allowed && <Alert type="info" showIcon title={noRightNote ?? t('controls.noRight')} className="fw-poi-controls__note" />}
      <div className="fw-poi-commands">
        {controls.map((def) => (
          <CommandControl key={def.name} target={target} def={def} disabled={!allowed} />
        ))}
      </div>
      {showRecord && (
        <>
          <Typography.Title level={5} className="fw-poi-commands__title">
            {t('controls.record')}
          </Typography.Title>
          <Table<Command>
            size="small"
            rowKey="id"
            data-testid="poi-commands"
            loading={list.isPending}
            dataSource={list.data?.list ?? []}
            locale={{ emptyText: <span className="fw-table-empty">{t('controls.none')}</span> }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
            columns={[
              { title: t('controls.sentAt'), dataIndex: 'submittedAt', width: 170, render: (v: number) => formatDateTime(v) },
              { title: t('controls.command'), key: 'command', render: (_, c) => <CommandText command={c} /> },
              ...(showBy ? [{ title: t('controls.by'), key: 'by', width: 140, render: (_: unknown, c: Command) => c.by?.name ?? '—' }] : []),
              { title: t('controls.state'), key: 'state', width: 260, render: (_, c) => <StateText command={c} /> },
            ]}
          />
          {list.error && <ServerErrorAlert error={list.error} />}
        </>
      )}
    </Card>
  );
}

/** Refreshes the device's readings when a command stops waiting: its effect shows in them. */
function useFollowUp(target: CommandTarget, list: Command[] | undefined) {
  const queryClient = useQueryClient();
  const open = useRef<Set<number>>(new Set());
  useEffect(() => {
    if (!list) return;
    const now = new Set(list.filter(isOpen).map((c) => c.id));
    const finished = [...open.current].some((id) => !now.has(id));
    open.current = now;
    if (finished) void queryClient.invalidateQueries({ queryKey: target.key });
  }, [target, list, queryClient]);
}

function CommandText({ command }: { command: Command }) {
  const { t } = useTranslation('poi');
  const params = Object.entries(command.params);
  return (
    <span>
      {command.label}
      {params.length > 0 && (
        <Typography.Text type="secondary">
          {' '}
          {params.map(([name, value]) => (name === 'minutes' ? t('controls.minutes', { count: Number(value) }) : t(`controls.value.${String(value)}`, String(value)))).join(', ')}
        </Typography.Text>
      )}
    </span>
  );
}

function StateText({ command }: { command: Command }) {
  const { t } = useTranslation('poi');
  let detail: string | null = null;
  if (command.state === 'pending') {
    detail = command.deliveredAt ? t('controls.delivered', { time: formatReportTime(command.deliveredAt) }) : t('controls.queued');
  } else if (command.state === 'effective') {
    detail = command.confirmedBy === 'report' ? t('controls.byReport') : t('controls.byAck');
  } else if (command.reason) {
    detail = command.reason;
  }
  return (
    <span className="fw-poi-command-state">
      <Tooltip title={command.finishedAt ? formatDateTime(command.finishedAt) : undefined}>
        <Tag color={STATE_COLOR[command.state]}>{t(`controls.states.${command.state}`)}</Tag>
      </Tooltip>
      {detail && <Typography.Text type="secondary">{detail}</Typography.Text>}
    </span>
  );
}

/** One command: a button, or a value and a button. */
function CommandControl({ target, def, disabled }: { target: CommandTarget; def: CommandDef; disabled: boolean }) {
  const { t } = useTranslation('poi');
  const notice = useNotice();
  const [form] = Form.useForm<Record<string, string | number | null>>();
  const send = useSendCommand(target, { onSuccess: () => notice.success(t('controls.sent', { name: def.label })) });
  const submit = (values: Record<string, string | number | null>) => {
    const params: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(values)) if (v !== null && v !== undefined) params[k] = v;
    send.mutate({ name: def.name, params });
  };
  if (def.inputs.length === 0) {
    // A command without a value is its own button: "Open valve", "Capture now".
    return (
      <div className="fw-poi-command" data-testid={`poi-command-${def.name}`}>
        <Button block icon={<SendOutlined />} loading={send.isPending} disabled={disabled} onClick={() => send.mutate({ name: def.name })}>
          {def.label}
        </Button>
        {send.error ? <ServerErrorAlert error={send.error} className="fw-poi-command__error" /> : null}
      </div>
    );
  }
  return (
    <div className="fw-poi-command" data-testid={`poi-command-${def.name}`}>
      <Typography.Text strong className="fw-poi-command__label">
        {def.label}
      </Typography.Text>
      <Form form={form} layout="inline" requiredMark={false} onFinish={submit} disabled={disabled} className="fw-poi-command__form" onValuesChange={() => send.isError && send.reset()}>
        {def.inputs.map((input) => (
          <Form.Item
            key={input.name}
            name={input.name}
            initialValue={input.options?.[0] ?? null}
            rules={[
              { required: input.required, message: t('controls.required', { field: input.label }) },
              input.kind === 'int'
                ? { type: 'integer', min: input.min, max: input.max, message: t('controls.range', { field: input.label, min: input.min, max: input.max }) }
                : {},
            ]}
          >
            {input.options ? (
              <Segmented aria-label={input.label} options={input.options.map((o) => ({ value: o, label: t(`controls.value.${o}`, o) }))} />
            ) : (
              <InputNumber
                aria-label={input.label}
                placeholder={input.label}
                min={input.min}
                max={input.max}
                precision={0}
                suffix={input.unit === 'min' ? t('settings.minutesUnit') : input.unit}
                className="fw-poi-command__number"
              />
            )}
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={send.isPending}>
          {t('controls.send')}
        </Button>
      </Form>
      {send.error ? <ServerErrorAlert error={send.error} className="fw-poi-command__error" /> : null}
    </div>
  );
}
