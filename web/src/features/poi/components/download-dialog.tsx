import { Alert, Button, Checkbox, DatePicker, Form, Input, Modal, Progress, Radio, Result, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { isApiError } from '@/lib/api-client';
import type { HistoryDim, ParamCatalogue } from '@/lib/telemetry/types';
import { exceedsOneYear } from '@/lib/time-range';
import { exportFileUrl, isExportFinished, useExportTask, useStartExport } from '../api/export-datapoints';
import type { ExportConfig, ExportFormat, ExportRequest } from '../types';
import { fromPicker, pickerToday } from '@/lib/farm-time';

/** An export that has not finished after this long is reported as timed out. */
export const EXPORT_TIMEOUT_MS = 3 * 60_000;

const EMAIL_KEY = 'fw-export-email';

/** SPEC.md §5: a valid address has a local part, an @ and a dotted domain, and no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

interface DownloadValues {
  range: [Dayjs, Dayjs];
  params: string[];
  nodes: number[];
  email: string;
  dim: HistoryDim;
  format: ExportFormat;
}

function rememberedEmail(): string {
  try {
    return window.localStorage.getItem(EMAIL_KEY) ?? '';
  } catch {
    return '';
  }
}

function remember(email: string) {
  try {
    window.localStorage.setItem(EMAIL_KEY, email);
  } catch {
    // Private mode may refuse storage; the address is simply asked for again next time.
  }
}

interface Job {
  taskId: string;
  /** Empty: the file is offered for download here. */
  email: string;
  startedAt: number;
}

interface ProgressProps {
  deviceId: number;
  job: Job;
  keepHours: number;
  onAgain: () => void;
  onClose: () => void;
}

function ExportProgress({ deviceId, job, keepHours, onAgain, onClose }: ProgressProps) {
  const { t } = useTranslation('poi');
  const [timedOut, setTimedOut] = useState(false);
  const task = useExportTask(deviceId, job.taskId, !timedOut);
  const finished = isExportFinished(task.data);

  useEffect(() => {
    if (finished) return;
    const timer = window.setTimeout(() => setTimedOut(true), Math.max(0, job.startedAt + EXPORT_TIMEOUT_MS - Date.now()));
    return () => window.clearTimeout(timer);
  }, [finished, job.startedAt]);

  const again = (
    <Button key="again" onClick={onAgain}>
      {t('download.again')}
    </Button>
  );
  const close = (
    <Button key="close" type="primary" onClick={onClose}>
      {t('download.close')}
    </Button>
  );

  if (task.data?.status === 'sent') {
    return (
      <Result
        status="success"
        data-testid="poi-export-done"
        title={t('download.sent', { email: job.email })}
        subTitle={t('download.sentHint', { count: task.data.rows })}
        extra={[again, close]}
      />
    );
  }
  if (task.data?.status === 'ready') {
    return (
      <Result
        status="success"
        data-testid="poi-export-ready"
        title={t('download.ready')}
        subTitle={t('download.readyHint', { count: task.data.rows, hours: keepHours })}
        extra={[
          <Button key="file" type="primary" href={exportFileUrl(deviceId, job.taskId)} download data-testid="poi-export-file">
            {t('download.file')}
          </Button>,
          again,
        ]}
      />
    );
  }
  if (task.data?.status === 'failed' || (task.error && !task.data)) {
    const message = task.data?.error || (isApiError(task.error) ? task.error.message : '') || t('download.failed');
    return <Result status="error" data-testid="poi-export-failed" title={t('download.failedTitle')} subTitle={message} extra={[again, close]} />;
  }
  if (timedOut) {
    return <Result status="warning" data-testid="poi-export-timeout" title={t('download.timeout')} extra={[again, close]} />;
  }
  const progress = task.data?.progress ?? 0;
  const running = task.data?.status === 'running';
  return (
    <div className="fw-poi-export-progress" data-testid="poi-export-progress">
      <Progress type="circle" percent={Math.round(progress)} status="active" size={96} />
      <Typography.Title level={5}>{running ? t('download.running') : t('download.queued')}</Typography.Title>
      <Typography.Text type="secondary">
        {running && task.data?.rows
          ? t('download.rows', { count: task.data.rows })
          : job.email
            ? t('download.willMail', { email: job.email })
            : t('download.willOffer')}
      </Typography.Text>
      <div className="fw-poi-export-progress__actions">
        <Button onClick={onClose}>{t('download.hide')}</Button>
      </div>
    </div>
  );
}

interface DownloadDialogProps {
  deviceId: number;
  catalogue: ParamCatalogue;
  /** How the server delivers files; until known (or if it cannot be asked), by e-mail. */
  config?: ExportConfig;
  open: boolean;
  onClose: () => void;
}

/**
 * Asks for a period, parameters, depths and an address, then has the server mail the file; on a server
 * without mail it says so up front, asks for no address, and offers the finished file for download.
 */
export function DownloadDialog({ deviceId, catalogue, config, open, onClose }: DownloadDialogProps) {
  const { t } = useTranslation('poi');
  const [form] = Form.useForm<DownloadValues>();
  const start = useStartExport(deviceId);
  const [job, setJob] = useState<Job | null>(null);
  const selectedParams = Form.useWatch('params', form) ?? [];
  const perDepth =
    catalogue.nodes.length > 0 && catalogue.params.some((param) => param.perNode && selectedParams.includes(param.id));

  const mail = config?.mail ?? true;

  const submit = (values: DownloadValues) => {
    const email = mail ? values.email.trim() : '';
    const request: ExportRequest = {
      params: values.params,
      nodes: perDepth && values.nodes.length < catalogue.nodes.length ? values.nodes : undefined,
      email: mail ? email : undefined,
      begin: fromPicker(values.range[0].startOf('day')).valueOf(),
      end: Math.min(fromPicker(values.range[1].startOf('day')).add(1, 'day').valueOf(), Date.now()),
      dim: values.dim,
      format: values.format,
    };
    if (mail) remember(email);
    start.mutate(request, {
      onSuccess: ({ taskId }) => setJob({ taskId: String(taskId), email, startedAt: Date.now() }),
      onError: (error) => {
        if (isApiError(error) && error.field && ['params', 'nodes', 'email', 'dim', 'format'].includes(error.field)) {
          form.setFields([{ name: error.field as keyof DownloadValues, errors: [error.message] }]);
        }
      },
    });
  };

  const again = () => {
    setJob(null);
    start.reset();
  };

  const initialValues: DownloadValues = {
    range: [pickerToday().subtract(6, 'day').startOf('day'), pickerToday()],
    params: catalogue.params.map((param) => param.id),
    nodes: [...catalogue.nodes],
    email: rememberedEmail(),
    dim: 'raw',
    format: 'xlsx',
  };

  return (
    <Modal
      open={open}
      title={t('download.title')}
      onCancel={onClose}
      width={620}
      footer={
        job
          ? null
          : [
              <Button key="cancel" onClick={onClose}>
                {t('cancel')}
              </Button>,
              <Button key="submit" type="primary" loading={start.isPending} onClick={() => form.submit()} data-testid="poi-export-submit">
                {mail ? t('download.submit') : t('download.prepare')}
              </Button>,
            ]
      }
      afterClose={() => {
        // Without mail the file is only here: closing keeps the job, so reopening shows it.
        if (job && mail) again();
      }}
      forceRender
    >
      {job ? (
        <ExportProgress deviceId={deviceId} job={job} keepHours={config?.fileKeepHours ?? 24} onAgain={again} onClose={onClose} />
      ) : (
        <Form<DownloadValues>
          form={form}
          name="poi-download"
          layout="vertical"
          requiredMark={false}
          initialValues={initialValues}
          onFinish={submit}
          onValuesChange={() => start.isError && start.reset()}
        >
          {!mail && (
            <Alert
              type="info"
              showIcon
              className="fw-poi-export-nomail"
              data-testid="poi-export-nomail"
              message={t('download.noMail', { hours: config?.fileKeepHours ?? 24 })}
            />
          )}
          <Form.Item
            name="range"
            label={t('download.range')}
            extra={t('download.rangeHint')}
            rules={[
              { required: true, message: t('download.rangeRequired') },
              {
                validator: (_rule, value: [Dayjs, Dayjs] | undefined) =>
                  value && exceedsOneYear(value[0].startOf('day').valueOf(), value[1].startOf('day').valueOf())
                    ? Promise.reject(new Error(t('download.rangeTooLong')))
                    : Promise.resolve(),
              },
            ]}
          >
            <DatePicker.RangePicker
              className="fw-poi-full"
              allowClear={false}
              disabledDate={(current) => current.isAfter(pickerToday().endOf('day'))}
            />
          </Form.Item>
          <Form.Item
            name="params"
            label={t('download.params')}
            rules={[{ required: true, type: 'array', min: 1, message: t('download.paramsRequired') }]}
          >
            <Checkbox.Group
              className="fw-poi-checks"
              options={catalogue.params.map((param) => ({ value: param.id, label: param.name }))}
            />
          </Form.Item>
          {perDepth && (
            <Form.Item
              name="nodes"
              label={t('download.depths')}
              rules={[{ required: true, type: 'array', min: 1, message: t('download.depthsRequired') }]}
            >
              <Checkbox.Group
                className="fw-poi-checks"
                options={catalogue.nodes.map((depth) => ({ value: depth, label: t('depth', { depth }) }))}
              />
            </Form.Item>
          )}
          <div className="fw-poi-form-row">
            <Form.Item name="dim" label={t('download.dim')}>
              <Radio.Group
                optionType="button"
                options={[
                  { value: 'raw', label: t('download.raw') },
                  { value: 'daily', label: t('download.daily') },
                ]}
              />
            </Form.Item>
            <Form.Item name="format" label={t('download.format')}>
              <Radio.Group
                optionType="button"
                options={[
                  { value: 'xlsx', label: 'XLSX' },
                  { value: 'csv', label: 'CSV' },
                ]}
              />
            </Form.Item>
          </div>
          {mail && (
            <Form.Item
              name="email"
              label={t('download.email')}
              extra={t('download.emailHint')}
              rules={[
                { required: true, whitespace: true, message: t('download.emailRequired') },
                { pattern: EMAIL_PATTERN, message: t('download.emailInvalid') },
              ]}
            >
              <Input type="email" autoComplete="email" placeholder={t('download.emailPlaceholder')} />
            </Form.Item>
          )}
          <ServerErrorAlert error={start.error} />
        </Form>
      )}
    </Modal>
  );
}
