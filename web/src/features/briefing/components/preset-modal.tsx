import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Form, Input, Modal, Row, Select, Space, Switch, Tag, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { isApiError } from '@/lib/api-client';
import { useBriefing, useCandidates, useSavePreset, useTemplates } from '../api/briefings';
import {
  bandLabel,
  PERIODS,
  REPORT_LANGS,
  soilDevicesOf,
  STAGES,
  type Candidate,
  type PresetInput,
  type Region,
  type ReportLang,
  weekdayKey,
} from '../types';

interface Values {
  templateId: string;
  name: string;
  unitName: string;
  province: string;
  city: string;
  district: string;
  company: string;
  lang: ReportLang;
  stage: PresetInput['stage'];
  period: PresetInput['period'];
  referenceNode: number;
  regionList: Region[];
  tqDeviceIds: number[];
  scheduleEnabled: boolean;
  weekday: number;
  time: Dayjs;
  recipients: string[];
}

function toValues(p: PresetInput): Values {
  return {
    templateId: p.templateId,
    name: p.name,
    unitName: p.unitName,
    province: p.province,
    city: p.city,
    district: p.district,
    company: p.company,
    lang: p.lang,
    stage: p.stage,
    period: p.period,
    referenceNode: p.referenceNode || 1,
    regionList: p.regionList.length > 0 ? p.regionList : [{ name: '', deviceIds: [] }],
    tqDeviceIds: p.tqDeviceIds,
    scheduleEnabled: p.schedule.enabled,
    weekday: p.schedule.weekday,
    time: dayjs().hour(p.schedule.hour).minute(p.schedule.minute).second(0),
    recipients: p.recipients,
  };
}

function deviceLabel(d: Candidate, missing: string) {
  return (
    <Space size={4}>
      <span>{d.name}</span>
      <Typography.Text type="secondary">{d.sn}</Typography.Text>
      {d.missingBands.length > 0 ? <Tag color="orange">{missing}</Tag> : null}
    </Space>
  );
}

/** Adds or edits a briefing preset: its place and unit, regions with their soil devices, weather points, stage and schedule. */
export function PresetModal({ target, onClose }: { target: number | 'new' | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('briefing');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const open = target !== null;
  const editing = typeof target === 'number' ? target : null;
  const templates = useTemplates();
  const candidates = useCandidates(open);
  const existing = useBriefing(editing);
  const save = useSavePreset({
    onSuccess: () => {
      message.success(t('form.saved'));
      onClose();
    },
  });
  const scheduleEnabled = Form.useWatch('scheduleEnabled', form);
  const period = Form.useWatch('period', form);

  useEffect(() => {
    if (!open) return;
    save.reset();
    if (editing !== null) {
      if (existing.data) form.setFieldsValue(toValues(existing.data));
      return;
    }
    const first = templates.data?.[0];
    if (first) form.setFieldsValue(toValues({ ...first.preset, lang: (i18n.language as ReportLang) || first.preset.lang }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, editing, existing.data, templates.data]);

  const soil = useMemo(() => (candidates.data ?? []).filter((d) => d.kind === 'soil'), [candidates.data]);
  const weather = useMemo(() => (candidates.data ?? []).filter((d) => d.kind === 'weather'), [candidates.data]);
  const soilOptions = soil.map((d) => ({
    value: d.id,
    label: deviceLabel(d, t('form.missing', { bands: d.missingBands.map(bandLabel).join(', ') })),
    search: `${d.name} ${d.sn}`,
  }));
  const anyMissing = soil.some((d) => d.missingBands.length > 0);

  const applyTemplate = (id: string) => {
    const tpl = templates.data?.find((x) => x.templateId === id);
    if (!tpl) return;
    const keep = form.getFieldsValue(['name', 'unitName', 'regionList', 'tqDeviceIds', 'recipients', 'lang']);
    form.setFieldsValue({ ...toValues(tpl.preset), ...Object.fromEntries(Object.entries(keep).filter(([, v]) => v !== undefined && v !== '')) });
  };

  const submit = (v: Values) => {
    const input: PresetInput = {
      name: v.name,
      templateId: v.templateId,
      province: v.province ?? '',
      city: v.city ?? '',
      district: v.district ?? '',
      company: v.company ?? '',
      unitName: v.unitName,
      lang: v.lang,
      regionList: v.regionList.map((r) => ({ name: r.name, deviceIds: r.deviceIds ?? [] })),
      zsDeviceIds: soilDevicesOf(v.regionList, existing.data?.zsDeviceIds),
      tqDeviceIds: v.tqDeviceIds ?? [],
      stage: v.stage,
      referenceNode: v.referenceNode,
      period: v.period,
      schedule: { enabled: v.scheduleEnabled, weekday: v.weekday, hour: v.time.hour(), minute: v.time.minute() },
      recipients: v.recipients ?? [],
      depth1: existing.data?.depth1,
      depth2: existing.data?.depth2,
      depth3: existing.data?.depth3,
    };
    save.mutate({ id: editing, input });
  };
  // The server names the field it refused; show it there too.
  const fieldError = isApiError(save.error) ? save.error.field : undefined;

  return (
    <Modal
      open={open}
      title={editing === null ? t('form.addTitle') : t('form.editTitle')}
      width={860}
      onCancel={onClose}
      okText={t('form.save')}
      cancelText={t('form.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'briefing-save' } as Record<string, string>}
    >
      <Form<Values> form={form} layout="vertical" onFinish={submit} className="fw-briefing__form" requiredMark="optional">
        <ServerErrorAlert error={save.error} className="fw-briefing__form-error" />
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="templateId" label={t('form.template')}>
              <Select
                onChange={applyTemplate}
                options={(templates.data ?? []).map((x) => ({ value: x.templateId, label: x.name, title: x.description }))}
                data-testid="briefing-template"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="name"
              label={t('form.name')}
              rules={[{ required: true, whitespace: true, message: t('form.required', { field: t('form.name') }) }, { max: 32 }]}
              validateStatus={fieldError === 'name' ? 'error' : undefined}
            >
              <Input placeholder={t('form.namePlaceholder')} maxLength={32} data-testid="briefing-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="unitName"
              label={t('form.unitName')}
              rules={[{ required: true, whitespace: true, message: t('form.required', { field: t('form.unitName') }) }]}
              validateStatus={fieldError === 'unitName' ? 'error' : undefined}
            >
              <Input placeholder={t('form.unitPlaceholder')} maxLength={64} data-testid="briefing-unit" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="lang" label={t('form.lang')}>
              <Select options={REPORT_LANGS.map((l) => ({ value: l, label: t(`lang.${l}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="province" label={t('form.province')}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="city" label={t('form.city')}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="district" label={t('form.district')}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="stage" label={t('form.stage')} tooltip={t('form.stageHelp')}>
              <Select options={STAGES.map((s) => ({ value: s, label: t(`stage.${s}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item name="period" label={t('form.period')}>
              <Select options={PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item name="referenceNode" label={t('form.reference')} tooltip={t('form.referenceHelp')}>
              <Select options={[1, 2, 3].map((b) => ({ value: b, label: bandLabel(b) }))} />
            </Form.Item>
          </Col>
        </Row>

        <Typography.Title level={5}>{t('form.regions')}</Typography.Title>
        {anyMissing ? (
          <Typography.Paragraph type="secondary" className="fw-briefing__note">
            {t('form.missingNote')}
          </Typography.Paragraph>
        ) : null}
        <Form.List
          name="regionList"
          rules={[
            {
              validator: async (_, regions?: Region[]) => {
                if (!regions || regions.length === 0) throw new Error(t('form.regionRequired'));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <Space direction="vertical" className="fw-briefing__regions" size={8}>
              {fields.map((field, index) => (
                <Card key={field.key} size="small" className="fw-briefing__region" data-testid={`briefing-region-${index}`}>
                  <Row gutter={12} align="top">
                    <Col xs={24} md={7}>
                      <Form.Item
                        name={[field.name, 'name']}
                        label={t('form.regionName')}
                        rules={[{ required: true, whitespace: true, message: t('form.required', { field: t('form.regionName') }) }]}
                      >
                        <Input placeholder={t('form.regionNamePlaceholder')} maxLength={64} data-testid={`briefing-region-name-${index}`} />
                      </Form.Item>
                    </Col>
                    <Col xs={20} md={15}>
                      <Form.Item
                        name={[field.name, 'deviceIds']}
                        label={t('form.regionDevices')}
                        required
                        rules={[
                          {
                            validator: async (_, ids?: number[]) => {
                              if (!ids || ids.length === 0) {
                                const name = form.getFieldValue(['regionList', field.name, 'name']) ?? '';
                                throw new Error(t('form.devicesRequired', { name }));
                              }
                            },
                          },
                        ]}
                      >
                        <Select
                          mode="multiple"
                          placeholder={t('form.regionDevicesPlaceholder')}
                          options={soilOptions}
                          optionFilterProp="search"
                          loading={candidates.isLoading}
                          data-testid={`briefing-region-devices-${index}`}
                        />
                      </Form.Item>
                    </Col>
                    <Col xs={4} md={2} className="fw-briefing__region-remove">
                      <Button
                        icon={<DeleteOutlined />}
                        aria-label={t('form.removeRegion')}
                        title={t('form.removeRegion')}
                        disabled={fields.length <= 1}
                        onClick={() => remove(field.name)}
                      />
                    </Col>
                  </Row>
                </Card>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', deviceIds: [] })} block data-testid="briefing-add-region">
                {t('form.addRegion')}
              </Button>
              <Form.ErrorList errors={errors} />
            </Space>
          )}
        </Form.List>

        <Form.Item name="tqDeviceIds" label={t('form.weather')} className="fw-briefing__weather">
          <Select
            mode="multiple"
            placeholder={t('form.weatherPlaceholder')}
            options={weather.map((d) => ({ value: d.id, label: `${d.name} · ${d.typeName}`, search: `${d.name} ${d.sn}` }))}
            optionFilterProp="search"
            data-testid="briefing-weather"
          />
        </Form.Item>

        <Row gutter={16} align="bottom">
          <Col xs={24} md={6}>
            <Form.Item name="scheduleEnabled" label={t('form.schedule')} tooltip={t('form.scheduleHelp')} valuePropName="checked">
              <Switch data-testid="briefing-schedule" />
            </Form.Item>
          </Col>
          {period !== 'dekad' ? (
            <Col xs={12} md={6}>
              <Form.Item name="weekday" label={t('form.weekday')}>
                <Select disabled={!scheduleEnabled} options={[1, 2, 3, 4, 5, 6, 0].map((d) => ({ value: d, label: t(weekdayKey(d)) }))} />
              </Form.Item>
            </Col>
          ) : null}
          <Col xs={12} md={6}>
            <Form.Item name="time" label={t('form.time')}>
              <TimePicker format="HH:mm" disabled={!scheduleEnabled} allowClear={false} minuteStep={1} data-testid="briefing-time" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="recipients"
          label={t('form.recipients')}
          rules={scheduleEnabled ? [{ required: true, message: t('form.required', { field: t('form.recipients') }) }] : []}
          validateStatus={fieldError === 'recipients' ? 'error' : undefined}
        >
          <Select mode="tags" tokenSeparators={[',', ';', ' ']} placeholder={t('form.recipientsPlaceholder')} open={false} suffixIcon={null} data-testid="briefing-recipients" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
