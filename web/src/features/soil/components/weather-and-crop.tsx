import { Alert, App, Button, Card, DatePicker, Form, Input, InputNumber, Select, Table, Tabs, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { ScrollRegion } from '@/components/scroll-region';
import { KeyFigure } from '@/components/summary-card';
import { Panel, StationLine, useDayColumns, useRainClass } from '@/components/weather-days';
import { farmTime } from '@/lib/farm-time';
import { formatValue, formatWithUnit, MISSING } from '@/lib/format';
import { useLang } from '@/lib/use-lang';
import { useSoilSettings } from '../api/get-soil-settings';
import { useMoistureQuery, useSevenMete, useUpdateCrop, useWeekWeather } from '../api/weather-and-crop';
import type { ForecastDay } from '../weather-types';

/** The weather of the last 7 days and the 7-day forecast at a soil device's weather station (week/weather). */
export function WeekWeatherPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const q = useWeekWeather(deviceId);
  const columns = useDayColumns(false);
  const rainClass = useRainClass();
  const forecastColumns: ColumnsType<ForecastDay> = [
    { title: t('pages.date'), dataIndex: 'date' },
    { title: t('pages.tempMax'), dataIndex: 'tempMax', align: 'right', render: (v: number | null) => formatWithUnit(v, '°C', 1) },
    { title: t('pages.tempMin'), dataIndex: 'tempMin', align: 'right', render: (v: number | null) => formatWithUnit(v, '°C', 1) },
    { title: t('pages.rain'), dataIndex: 'rain', align: 'right', render: (v: number | null, d) => (v === null ? MISSING : `${formatWithUnit(v, 'mm', 1)} · ${rainClass(d.rainClass)}`) },
    { title: 'ET0', dataIndex: 'et0', align: 'right', render: (v: number | null) => formatWithUnit(v, 'mm', 2) },
    { title: 'Kc', dataIndex: 'kc', align: 'right', render: (v: number | null) => formatValue(v, 2) },
    { title: 'ETc', dataIndex: 'etc', align: 'right', render: (v: number | null) => formatWithUnit(v, 'mm', 2) },
  ];
  const d = q.data;
  return (
    <Panel loading={q.isPending} error={q.error} empty={!!d && !d.station} emptyText={t('pages.noStation')} testId="poi-week-weather">
      {d && (
        <>
          <StationLine station={d.station} />
          <Typography.Title level={5}>{t('pages.observed')}</Typography.Title>
          <ScrollRegion label={t('pages.observed')}>
            <Table rowKey="time" size="small" pagination={false} scroll={{ x: 'max-content' }} columns={columns} dataSource={d.observed} />
          </ScrollRegion>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('pages.forecast')}
          </Typography.Title>
          {d.forecast ? (
            <ScrollRegion label={t('pages.forecast')}>
              <Table rowKey="time" size="small" pagination={false} scroll={{ x: 'max-content' }} columns={forecastColumns} dataSource={d.forecast.days} />
            </ScrollRegion>
          ) : (
            <Alert type="info" showIcon message={t('pages.forecastUnavailable')} data-testid="poi-week-weather-no-forecast" />
          )}
        </>
      )}
    </Panel>
  );
}

/** The meteorology of the last 7 days at a soil device's weather station (seven/mete). */
export function SevenMetePanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const q = useSevenMete(deviceId);
  const columns = useDayColumns(true);
  const d = q.data;
  const rain = d?.days.reduce((s, x) => s + (x.rain ?? 0), 0) ?? 0;
  const et0 = d?.days.reduce((s, x) => s + (x.et0 ?? 0), 0) ?? 0;
  return (
    <Panel loading={q.isPending} error={q.error} empty={!!d && (!d.station || d.days.length === 0)} emptyText={t('pages.noStation')} testId="poi-seven-mete">
      {d && (
        <>
          <StationLine station={d.station} />
          <div className="fw-poi-figures">
            <KeyFigure label={t('pages.rain7')} value={formatWithUnit(rain, 'mm', 1)} />
            <KeyFigure label={t('pages.et07')} value={formatWithUnit(et0, 'mm', 1)} />
            <KeyFigure label={t('pages.balance')} value={formatWithUnit(rain - et0, 'mm', 1)} />
          </div>
          <ScrollRegion label={t('pages.observed')}>
            <Table rowKey="time" size="small" pagination={false} scroll={{ x: 'max-content' }} columns={columns} dataSource={d.days} />
          </ScrollRegion>
        </>
      )}
    </Panel>
  );
}

/** Daily soil moisture of each depth with its share of field capacity (sqy/query). */
export function MoistureQueryPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const q = useMoistureQuery(deviceId);
  const d = q.data;
  const times = d?.nodes[0]?.points.map((p) => p.time) ?? [];
  type Row = { time: number; cells: Record<number, { moisture: number; relative: number | null } | undefined> };
  const rows: Row[] = times
    .map((time) => ({
      time,
      cells: Object.fromEntries((d?.nodes ?? []).map((n) => [n.depth, n.points.find((p) => p.time === time)])),
    }))
    .reverse();
  const columns: ColumnsType<Row> = [
    { title: t('pages.date'), dataIndex: 'time', fixed: 'left', render: (v: number) => farmTime(v).format('YYYY-MM-DD') },
    ...(d?.nodes ?? []).map((n) => ({
      title: t('pages.depth', { depth: n.depth }),
      key: String(n.depth),
      align: 'right' as const,
      render: (_: unknown, r: Row) => {
        const c = r.cells[n.depth];
        return c ? `${formatWithUnit(c.moisture, '%', 1)}${c.relative === null ? '' : ` · ${formatValue(c.relative, 0)}% ${t('pages.ofFc')}`}` : MISSING;
      },
    })),
  ];
  return (
    <Panel loading={q.isPending} error={q.error} empty={rows.length === 0} emptyText={t('pages.noDays')} testId="poi-sqy-query">
      <Typography.Paragraph type="secondary">{t('pages.sqyExplain')}</Typography.Paragraph>
      <ScrollRegion label={t('pages.sqyExplain')}>
        <Table rowKey="time" size="small" pagination={false} scroll={{ x: 'max-content' }} columns={columns} dataSource={rows} />
      </ScrollRegion>
    </Panel>
  );
}

/** Changes only the crop of the plot (crop/update). */
export function CropPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const { message } = App.useApp();
  const lang = useLang();
  const settings = useSoilSettings(deviceId, lang);
  const save = useUpdateCrop(deviceId);
  const [form] = Form.useForm<{ cropName: string; cropVariety: string; sowTime: Dayjs | null; area: number | null }>();
  const s = settings.data;
  return (
    <Panel loading={settings.isPending} error={settings.error} empty={false} emptyText="" testId="poi-crop-update">
      {s && (
        <Form
          form={form}
          layout="vertical"
          style={{ maxWidth: 480 }}
          disabled={!s.canEdit}
          initialValues={{
            cropName: s.cropType || undefined,
            cropVariety: s.cropVariety,
            sowTime: s.plantingTime ? farmTime(s.plantingTime) : null,
            area: s.areaMu,
          }}
          onFinish={async (v) => {
            await save.mutateAsync({ cropName: v.cropName, cropVariety: v.cropVariety ?? '', sowTime: v.sowTime ? v.sowTime.valueOf() : null, area: v.area ?? null });
            void message.success(t('pages.cropSaved'));
          }}
        >
          <Typography.Paragraph type="secondary">{t('pages.cropExplain')}</Typography.Paragraph>
          {save.error ? <ServerErrorAlert error={save.error} /> : null}
          <Form.Item name="cropName" label={t('soilSettings.cropType')} rules={[{ required: true, message: t('pages.cropRequired') }]}>
            <Select options={s.cropTypes.map((o) => ({ value: o.id, label: o.name }))} placeholder={t('soilSettings.choose')} data-testid="poi-crop-select" />
          </Form.Item>
          <Form.Item name="cropVariety" label={t('soilSettings.cropVariety')}>
            <Input maxLength={32} showCount />
          </Form.Item>
          <Form.Item name="sowTime" label={t('soilSettings.plantingTime')}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="area" label={t('soilSettings.area')}>
            <InputNumber suffix={t('soilSettings.mu')} min={0} max={1_000_000} style={{ width: '100%' }} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="poi-crop-save">
            {t('pages.cropSave')}
          </Button>
        </Form>
      )}
    </Panel>
  );
}


/** The plot's moisture by day, its weather this week and the last seven days', and its crop. */
export function SoilWeatherCard({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  return (
    <Card variant="borderless" title={t('pages.soilWeatherTitle')} className="fw-poi-section" data-testid="poi-soil-weather">
      <Tabs
        destroyOnHidden
        items={[
          { key: 'sqy', label: t('pages.tabs.sqy'), children: <MoistureQueryPanel deviceId={deviceId} /> },
          { key: 'week', label: t('pages.tabs.week'), children: <WeekWeatherPanel deviceId={deviceId} /> },
          { key: 'mete', label: t('pages.tabs.mete'), children: <SevenMetePanel deviceId={deviceId} /> },
          { key: 'crop', label: t('pages.tabs.crop'), children: <CropPanel deviceId={deviceId} /> },
        ]}
      />
    </Card>
  );
}
