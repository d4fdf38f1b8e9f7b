import { CalculatorOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, DatePicker, Flex, Form, Select, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FarmZoneNote } from '@/components/farm-zone-note';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { formatValue, MISSING } from '@/lib/format';
import { fromPicker, toPicker } from '@/lib/farm-time';
import { useDevicesOf, useUtilization, useUtilizationExport, type FieldWater, type MeterWater, type UtilizationRequest } from '../api/utilization';
import './water-use.css';

const DAY = 86_400_000;
/** A season by default: the last 90 days. */
const DEFAULT_DAYS = 90;

interface FormValues {
  fieldIds: number[];
  meterIds: number[];
  range: [Dayjs, Dayjs];
}

const num = (value: number | null | undefined, precision = 1) => (value === null || value === undefined ? MISSING : formatValue(value, precision));

/**
 * The effective utilization coefficient of irrigation water (灌溉水有效利用系数) of a set of fields
 * over a season, by the head-and-tail method: what the crops used net over what was drawn at the
 * source, with every input shown and the workbook to hand in.
 */
export function UtilizationPage() {
  const { t } = useTranslation('waterUse');
  const [form] = Form.useForm<FormValues>();
  const soil = useDevicesOf('soil');
  const meters = useDevicesOf('irrigation');
  const result = useUtilization();
  const exporter = useUtilizationExport();
  const [asked, setAsked] = useState<UtilizationRequest | null>(null);
  const [initial] = useState<FormValues>(() => {
    const now = Date.now();
    return { fieldIds: [], meterIds: [], range: [toPicker(now - DEFAULT_DAYS * DAY).startOf('day'), toPicker(now)] };
  });
  const today = initial.range[1].endOf('day');

  const submit = (v: FormValues) => {
    const body = { fieldIds: v.fieldIds, meterIds: v.meterIds, begin: fromPicker(v.range[0].startOf('day')).valueOf(), end: fromPicker(v.range[1].endOf('day')).valueOf() + 1 };
    setAsked(body);
    result.mutate(body);
  };
  const options = (list: { id: number; name: string; sn: string }[] | undefined) => (list ?? []).map((d) => ({ value: d.id, label: `${d.name} · ${d.sn}` }));
  const u = result.data;

  const fieldColumns: ColumnsType<FieldWater> = [
    { title: t('col.field'), key: 'name', width: 190, render: (_, f) => <span>{f.name}<Typography.Text type="secondary" className="fw-water__sn">{f.sn}</Typography.Text></span> },
    { title: t('col.area'), dataIndex: 'areaMu', align: 'right', render: (v: number | null) => num(v) },
    { title: t('col.etc'), dataIndex: 'etc', align: 'right', render: (v: number | null) => num(v) },
    { title: t('col.rain'), key: 'rain', align: 'right', render: (_, f) => (f.rain === null ? MISSING : `${num(f.rain)} / ${num(f.effectiveRain)}`) },
    { title: t('col.storage'), key: 'storage', align: 'right', render: (_, f) => (f.storageStart === null ? MISSING : `${num(f.storageStart)} → ${num(f.storageEnd)}`) },
    { title: t('col.netMm'), dataIndex: 'netMm', align: 'right', render: (v: number | null) => num(v) },
    { title: t('col.netM3'), dataIndex: 'netM3', align: 'right', render: (v: number | null) => num(v) },
    {
      title: t('col.state'),
      key: 'state',
      render: (_, f) =>
        f.missing.length === 0 ? (
          <Tag color="success">{t('counted')}</Tag>
        ) : (
          <Tooltip title={f.missingText.join(t('separator'))}>
            <Tag color="warning">{t('leftOut', { reason: f.missingText[0] })}</Tag>
          </Tooltip>
        ),
    },
  ];
  const meterColumns: ColumnsType<MeterWater> = [
    { title: t('col.meter'), key: 'name', render: (_, m) => <span>{m.name}<Typography.Text type="secondary" className="fw-water__sn">{m.sn}</Typography.Text></span> },
    { title: t('col.gross'), dataIndex: 'grossM3', align: 'right', render: (v: number) => num(v, 2) },
    { title: t('col.days'), dataIndex: 'days', align: 'right' },
  ];

  return (
    <div className="fw-page fw-water" data-testid="water-use">
      <Card variant="borderless" title={t('title')} className="fw-water__card">
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <Form<FormValues>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={initial}
          className="fw-water__form"
        >
          <Form.Item name="fieldIds" label={t('fields')} extra={t('fieldsHint')} rules={[{ required: true, type: 'array', min: 1, message: t('fieldsRequired') }]}>
            <Select mode="multiple" allowClear loading={soil.isPending} options={options(soil.data?.list)} placeholder={t('fieldsPlaceholder')} optionFilterProp="label" data-testid="water-fields" />
          </Form.Item>
          <Form.Item name="meterIds" label={t('meters')} extra={t('metersHint')} rules={[{ required: true, type: 'array', min: 1, message: t('metersRequired') }]}>
            <Select mode="multiple" allowClear loading={meters.isPending} options={options(meters.data?.list)} placeholder={t('metersPlaceholder')} optionFilterProp="label" data-testid="water-meters" />
          </Form.Item>
          <Form.Item name="range" label={t('season')} rules={[{ required: true, message: t('seasonRequired') }]}>
            <DatePicker.RangePicker allowClear={false} disabledDate={(d) => d.isAfter(today)} />
          </Form.Item>
          <Flex gap={8} wrap align="center">
            <Button type="primary" htmlType="submit" icon={<CalculatorOutlined />} loading={result.isPending} data-testid="water-compute">
              {t('compute')}
            </Button>
            <Button icon={<DownloadOutlined />} disabled={!u || !asked} loading={exporter.isPending} onClick={() => asked && exporter.mutate(asked)} data-testid="water-export">
              {t('export')}
            </Button>
            <FarmZoneNote />
          </Flex>
        </Form>
        <ServerErrorAlert error={soil.error ?? meters.error ?? result.error ?? exporter.error} />
      </Card>

      {u && (
        <>
          <Card variant="borderless" title={t('result')} className="fw-water__card" data-testid="water-result">
            <Flex gap={48} wrap>
              <Statistic title={t('coefficient')} value={u.coefficient === null ? MISSING : formatValue(u.coefficient, 3)} data-testid="water-coefficient" />
              <Statistic title={t('net')} value={formatValue(u.netM3, 1)} suffix="m³" />
              <Statistic title={t('gross')} value={formatValue(u.grossM3, 1)} suffix="m³" />
            </Flex>
            {u.warningText.map((w) => (
              <Alert key={w} type="warning" showIcon title={w} className="fw-water__warning" />
            ))}
            <Typography.Paragraph type="secondary" className="fw-water__method">
              {t('method')}
            </Typography.Paragraph>
          </Card>
          <Card variant="borderless" title={t('fieldsTitle')} className="fw-water__card">
            <Table<FieldWater> size="small" rowKey="id" pagination={false} dataSource={u.fields} columns={fieldColumns} scroll={{ x: 900 }} data-testid="water-field-table" />
          </Card>
          <Card variant="borderless" title={t('metersTitle')} className="fw-water__card">
            <Table<MeterWater> size="small" rowKey="id" pagination={false} dataSource={u.meters} columns={meterColumns} data-testid="water-meter-table" />
          </Card>
        </>
      )}
    </div>
  );
}
