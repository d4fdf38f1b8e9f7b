import { Alert, Button, type FormInstance, DatePicker, Form, Input, InputNumber, Select, Switch, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { isApiError } from '@/lib/api-client';
import { formatDateTime, formatValue } from '@/lib/format';
import { checkArea, checkNodes, checkVariety, MAX_AREA_MU, MAX_VARIETY, type SettingsProblem } from '../lib/soil-settings';
import type { SoilSettings, SoilSettingsInput } from '../types';
import { fromPicker, toPicker } from '@/lib/farm-time';

type FieldData = Parameters<FormInstance<FormValues>['setFields']>[0][number];

interface FormValues {
  nodes: { depth: number; fieldCapacity: number | null; unitWeight: number | null }[];
  cropType?: string;
  cropVariety?: string;
  irrigationMethod?: string;
  plantingTime?: Dayjs | null;
  areaMu?: number | null;
  enableTime?: Dayjs | null;
  upload: boolean;
}

function toForm(settings: SoilSettings): FormValues {
  return {
    nodes: settings.nodes.map(({ depth, fieldCapacity, unitWeight }) => ({ depth, fieldCapacity, unitWeight })),
    cropType: settings.cropType || undefined,
    cropVariety: settings.cropVariety || '',
    irrigationMethod: settings.irrigationMethod || undefined,
    plantingTime: settings.plantingTime ? toPicker(settings.plantingTime) : null,
    areaMu: settings.areaMu,
    enableTime: settings.enableTime ? toPicker(settings.enableTime) : null,
    upload: settings.upload,
  };
}

function toInput(values: FormValues): SoilSettingsInput {
  return {
    nodes: values.nodes.map(({ depth, fieldCapacity, unitWeight }) => ({ depth, fieldCapacity: fieldCapacity ?? 0, unitWeight: unitWeight ?? 0 })),
    cropType: values.cropType ?? '',
    cropVariety: values.cropVariety ?? '',
    irrigationMethod: values.irrigationMethod ?? '',
    plantingTime: values.plantingTime ? fromPicker(values.plantingTime.startOf('day')).valueOf() : null,
    areaMu: values.areaMu ?? null,
    enableTime: values.enableTime ? fromPicker(values.enableTime).valueOf() : null,
    upload: values.upload,
  };
}

/** "nodes[2].fieldCapacity" → ['nodes', 2, 'fieldCapacity'], the form's name path. */
export function fieldPath(field: string): (string | number)[] {
  return field
    .split(/[.[\]]/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** Every rule of the settings, checked on the whole form; problems go to their fields. */
export function problemsOf(values: FormValues): SettingsProblem[] {
  return [...checkNodes(values.nodes ?? []), checkArea(values.areaMu), checkVariety(values.cropVariety)].filter(
    (problem): problem is SettingsProblem => problem !== null,
  );
}

interface SoilSettingsFormProps {
  settings: SoilSettings;
  saving: boolean;
  error: unknown;
  onSave: (input: SoilSettingsInput) => Promise<unknown>;
}

/** The per-layer soil and the crop of a soil device (GET/PUT /apis/poi/shang/config). */
export function SoilSettingsForm({ settings, saving, error, onSave }: SoilSettingsFormProps) {
  const { t } = useTranslation('poi');
  const [form] = Form.useForm<FormValues>();
  const disabled = !settings.canEdit;

  useEffect(() => {
    form.setFieldsValue(toForm(settings));
  }, [form, settings]);

  /** Every rule spans fields (the layer difference two rows): a change clears every message. */
  const clearErrors = () =>
    form.setFields(
      [
        ...settings.nodes.flatMap((_, k) => [
          { name: ['nodes', k, 'fieldCapacity'], errors: [] },
          { name: ['nodes', k, 'unitWeight'], errors: [] },
        ]),
        { name: ['areaMu'], errors: [] },
        { name: ['cropVariety'], errors: [] },
      ] as unknown as FieldData[],
    );

  const submit = async () => {
    clearErrors();
    // The depths are not inputs: take every stored value, and each row's depth from the device.
    const stored = form.getFieldsValue(true) as FormValues;
    const values: FormValues = { ...stored, nodes: (stored.nodes ?? []).map((node, i) => ({ ...node, depth: settings.nodes[i]?.depth ?? node.depth })) };
    const problems = problemsOf(values);
    const fields = new Map<string, { name: (string | number)[]; errors: string[] }>();
    for (const problem of problems) {
      const key = problem.field.join('.');
      const entry = fields.get(key) ?? { name: problem.field, errors: [] };
      entry.errors.push(t(problem.key, problem.values));
      fields.set(key, entry);
    }
    if (fields.size > 0) {
      form.setFields([...fields.values()] as FieldData[]);
      return;
    }
    try {
      await onSave(toInput(values));
    } catch (caught) {
      if (isApiError(caught) && caught.field) form.setFields([{ name: fieldPath(caught.field), errors: [caught.message] }] as FieldData[]);
    }
  };

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      disabled={disabled}
      initialValues={toForm(settings)}
      onFinish={submit}
      onValuesChange={clearErrors}
      className="fw-poi-soil-form"
      data-testid="poi-soil-settings"
    >
      {!settings.configured && <Alert type="info" showIcon className="fw-poi-soil-form__note" title={t('soilSettings.notConfigured')} />}
      {disabled && <Alert type="warning" showIcon className="fw-poi-soil-form__note" title={t('soilSettings.readOnly')} />}
      <Typography.Text strong>{t('soilSettings.layers')}</Typography.Text>
      <Typography.Paragraph type="secondary" className="fw-poi-soil-form__hint">
        {t('soilSettings.layersHint')}
      </Typography.Paragraph>
      <div className="fw-poi-soil-grid" role="table" aria-label={t('soilSettings.layers')}>
        <div className="fw-poi-soil-grid__head" role="row">
          <span role="columnheader">{t('soilSettings.depth')}</span>
          <span role="columnheader">{t('soilSettings.fieldCapacity')}</span>
          <span role="columnheader">{t('soilSettings.unitWeight')}</span>
          <span role="columnheader">{t('soilSettings.saturation')}</span>
        </div>
        <Form.List name="nodes">
          {(rows) =>
            rows.map((row, i) => {
              const node = settings.nodes[i];
              return (
                <div className="fw-poi-soil-grid__row" role="row" key={row.key}>
                  <span role="cell" className="fw-poi-soil-grid__depth">
                    {node ? `${node.depth} cm` : ''}
                  </span>
                  {/* The inputs sit in cells: a row of a table holds cells only. */}
                  <div role="cell">
                    <Form.Item name={[row.name, 'fieldCapacity']} className="fw-poi-soil-grid__cell" required>
                      <InputNumber
                        aria-label={t('soilSettings.fieldCapacityAt', { depth: node?.depth })}
                        suffix="%"
                        step={0.1}
                        style={{ width: '100%' }}
                      />
                    </Form.Item>
                  </div>
                  <div role="cell">
                    <Form.Item name={[row.name, 'unitWeight']} className="fw-poi-soil-grid__cell" required>
                      <InputNumber aria-label={t('soilSettings.unitWeightAt', { depth: node?.depth })} suffix="g/cm³" step={0.01} style={{ width: '100%' }} />
                    </Form.Item>
                  </div>
                  <span role="cell" className="fw-poi-soil-grid__saturation">
                    {formatValue(node?.saturation ?? null)}
                    {node?.saturation != null ? ' %' : ''}
                  </span>
                </div>
              );
            })
          }
        </Form.List>
      </div>
      <div className="fw-poi-soil-form__crop">
        <Form.Item name="cropType" label={t('soilSettings.cropType')}>
          <Select allowClear options={settings.cropTypes.map((o) => ({ value: o.id, label: o.name }))} placeholder={t('soilSettings.choose')} />
        </Form.Item>
        <Form.Item name="cropVariety" label={t('soilSettings.cropVariety')}>
          <Input maxLength={MAX_VARIETY} showCount />
        </Form.Item>
        <Form.Item name="irrigationMethod" label={t('soilSettings.irrigationMethod')}>
          <Select allowClear options={settings.irrigationMethods.map((o) => ({ value: o.id, label: o.name }))} placeholder={t('soilSettings.choose')} />
        </Form.Item>
        <Form.Item name="plantingTime" label={t('soilSettings.plantingTime')}>
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="areaMu" label={t('soilSettings.area')}>
          <InputNumber suffix={t('soilSettings.mu')} min={0} max={MAX_AREA_MU} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="enableTime" label={t('soilSettings.enableTime')}>
          <DatePicker showTime style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="upload" label={t('soilSettings.upload')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </div>
      {error && !(isApiError(error) && error.field) ? <ServerErrorAlert error={error} /> : null}
      <div className="fw-poi-soil-form__actions">
        {settings.updatedAt ? (
          <Typography.Text type="secondary">{t('soilSettings.updatedAt', { time: formatDateTime(settings.updatedAt) })}</Typography.Text>
        ) : (
          <span />
        )}
        {!disabled && (
          <Button type="primary" htmlType="submit" loading={saving} data-testid="poi-soil-settings-save">
            {t('soilSettings.save')}
          </Button>
        )}
      </div>
    </Form>
  );
}
