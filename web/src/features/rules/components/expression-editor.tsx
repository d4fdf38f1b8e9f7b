import { DeleteOutlined, DownOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Flex, Form, InputNumber, Select, Tooltip, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuleDevicesOfTypes } from '../api/get-rule-devices';
import { useRuleParams } from '../api/get-rule-params';
import { useRuleTypes } from '../api/get-rule-types';
import { paramSourceOf, type ExpressionDraft } from '../form-state';
import { formatWindow } from '../summary';
import { AGGREGATIONS, isRange, OFFLINE_PARAM, OPERATORS } from '../types';
import { missingParts } from '../validation';

/** Time windows offered in minutes: the report itself, then 10 minutes to a week. */
export const WINDOW_CHOICES = [0, 10, 30, 60, 180, 360, 720, 1440, 2880, 4320, 10080];

export interface ExpressionEditorProps {
  /** Injected by Form.Item. */
  value?: ExpressionDraft;
  onChange?: (value: ExpressionDraft) => void;
  index: number;
  /** The rule's device type, whose parameters the expression reads unless it names a device. */
  typeId: number | undefined;
  onRemove: () => void;
}

/** Marks one control red, and only that one, while its row has an error. */
function Mark({ error, children }: { error: boolean; children: ReactNode }) {
  return (
    <Form.Item noStyle validateStatus={error ? 'error' : ''}>
      {children}
    </Form.Item>
  );
}

/**
 * One condition: parameter, depths (for a per-depth parameter), aggregation, comparison and
 * threshold(s), with the time window and another device as the source tucked under "Advanced".
 */
export function ExpressionEditor({
  value,
  onChange,
  index,
  typeId,
  onRemove,
}: ExpressionEditorProps) {
  const { t } = useTranslation('rules');
  const draft: ExpressionDraft = value ?? { nodes: [], windowMinutes: 0 };
  const { status, errors } = Form.Item.useStatus();
  const { data: params, isFetching: paramsLoading } = useRuleParams(paramSourceOf(draft, typeId));
  const param = params?.find((p) => p.id === draft.param);
  // A template's parameter the type lacks (a landslide rule's rainfall) needs another device.
  const needsSource = params !== undefined && draft.param !== undefined && !param && draft.deviceId === undefined;
  const [advancedOpen, setAdvancedOpen] = useState(() => draft.windowMinutes > 0 || draft.deviceId !== undefined);
  const advanced = advancedOpen || needsSource;
  // Every device of the caller's, loaded only once someone opens the advanced options.
  const types = useRuleTypes({ enabled: advanced });
  const source = useRuleDevicesOfTypes((types.data ?? []).map((type) => type.typeId), { enabled: advanced });

  const invalid = status === 'error';
  const missing = missingParts(draft, params);
  const rangeError = invalid && errors.includes(t('validation.thresholdRange'));
  const mark = (part: keyof typeof missing) => invalid && missing[part];

  const update = (patch: Partial<ExpressionDraft>) => onChange?.({ ...draft, ...patch });
  const changeParam = (id: string) =>
    update({
      param: id,
      nodes: [],
      // Offline time is one number per device: how it is aggregated does not matter.
      aggregation: id === OFFLINE_PARAM ? 'max' : draft.param === OFFLINE_PARAM ? undefined : draft.aggregation,
    });

  const unit = param?.unit;
  const offline = draft.param === OFFLINE_PARAM;
  const windows = WINDOW_CHOICES.includes(draft.windowMinutes) ? WINDOW_CHOICES : [...WINDOW_CHOICES, draft.windowMinutes].sort((a, b) => a - b);
  const paramOptions = (params ?? []).map((p) => ({ value: p.id, label: p.unit ? `${p.name} (${p.unit})` : p.name }));
  if (draft.param && !param) paramOptions.push({ value: draft.param, label: draft.param });

  return (
    <div className="fw-expression" data-testid={`expression-${index}`}>
      <Flex align="center" justify="space-between" className="fw-expression__head">
        <Typography.Text type="secondary" className="fw-expression__label">
          {t('expression.label', { index: index + 1 })}
        </Typography.Text>
        <Tooltip title={t('expression.remove')}>
          <Button type="text" size="small" icon={<DeleteOutlined />} aria-label={t('expression.remove')} onClick={onRemove} />
        </Tooltip>
      </Flex>
      <Flex wrap gap={8} align="center" className="fw-expression__row">
        <Mark error={mark('param')}>
          <Select
            className="fw-expression__param"
            placeholder={t('expression.param')}
            aria-label={t('expression.param')}
            value={draft.param}
            options={paramOptions}
            loading={paramsLoading}
            onChange={changeParam}
            showSearch={{ optionFilterProp: 'label' }}
            popupMatchSelectWidth={false}
          />
        </Mark>
        {param && param.nodes.length > 0 && (
          <Mark error={mark('nodes')}>
            <Select
              className="fw-expression__nodes"
              mode="multiple"
              placeholder={t('expression.nodes')}
              aria-label={t('expression.nodes')}
              value={draft.nodes}
              options={param.nodes.map((depth) => ({ value: depth, label: t('expression.node', { depth }) }))}
              onChange={(nodes: number[]) => update({ nodes: [...nodes].sort((a, b) => a - b) })}
              maxTagCount="responsive"
            />
          </Mark>
        )}
        {!offline && (
          <Mark error={mark('aggregation')}>
            <Select
              className="fw-expression__aggregation"
              placeholder={t('expression.aggregation')}
              aria-label={t('expression.aggregation')}
              value={draft.aggregation}
              options={AGGREGATIONS.map((a) => ({ value: a, label: t(`aggregations.${a}`) }))}
              onChange={(aggregation) => update({ aggregation })}
              popupMatchSelectWidth={false}
            />
          </Mark>
        )}
        <Mark error={mark('operator')}>
          <Select
            className="fw-expression__operator"
            placeholder={t('expression.operator')}
            aria-label={t('expression.operator')}
            value={draft.operator}
            options={OPERATORS.map((o) => ({ value: o, label: t(`operators.${o}`) }))}
            onChange={(operator) => update({ operator, threshold2: isRange(operator) ? draft.threshold2 : null })}
            popupMatchSelectWidth={false}
          />
        </Mark>
        <Mark error={mark('threshold') || rangeError}>
          <InputNumber<number>
            className="fw-expression__threshold"
            placeholder={isRange(draft.operator) ? t('expression.low') : t('expression.threshold')}
            aria-label={isRange(draft.operator) ? t('expression.low') : t('expression.threshold')}
            value={draft.threshold ?? null}
            onChange={(threshold) => update({ threshold })}
            suffix={isRange(draft.operator) ? undefined : unit}
          />
        </Mark>
        {isRange(draft.operator) && (
          <>
            <span className="fw-expression__tilde">~</span>
            <Mark error={mark('threshold2') || rangeError}>
              <InputNumber<number>
                className="fw-expression__threshold"
                placeholder={t('expression.high')}
                aria-label={t('expression.high')}
                value={draft.threshold2 ?? null}
                onChange={(threshold2) => update({ threshold2 })}
                suffix={unit}
              />
            </Mark>
          </>
        )}
      </Flex>
      <Button
        type="link"
        size="small"
        className="fw-expression__advanced-toggle"
        icon={advanced ? <DownOutlined /> : <RightOutlined />}
        onClick={() => setAdvancedOpen(!advanced)}
        disabled={needsSource}
        aria-expanded={advanced}
      >
        {t('expression.advanced')}
      </Button>
      {advanced && (
        <div className="fw-expression__advanced">
          {!offline && (
            <div className="fw-expression__option">
              <Typography.Text className="fw-expression__option-label">{t('expression.window')}</Typography.Text>
              <Mark error={false}>
                <Select
                  className="fw-expression__window"
                  aria-label={t('expression.window')}
                  value={draft.windowMinutes}
                  options={windows.map((minutes) => ({
                    value: minutes,
                    label: minutes === 0 ? t('expression.windowNone') : formatWindow(t, minutes),
                  }))}
                  onChange={(windowMinutes: number) => update({ windowMinutes })}
                />
              </Mark>
              <Typography.Text type="secondary" className="fw-expression__hint">
                {t('expression.windowHint')}
              </Typography.Text>
            </div>
          )}
          <div className="fw-expression__option">
            <Typography.Text className="fw-expression__option-label">{t('expression.source')}</Typography.Text>
            <Mark error={invalid && needsSource}>
              <Select<number>
                className="fw-expression__source"
                aria-label={t('expression.source')}
                value={draft.deviceId ?? 0}
                loading={types.isFetching || source.isLoading}
                options={[
                  { value: 0, label: t('expression.sourceSelf') },
                  ...source.devices.map((d) => ({ value: d.id, label: `${d.name} · ${d.sn}` })),
                ]}
                onChange={(deviceId) => update({ deviceId: deviceId === 0 ? undefined : deviceId })}
                showSearch={{ optionFilterProp: 'label' }}
                popupMatchSelectWidth={false}
              />
            </Mark>
            <Typography.Text type="secondary" className="fw-expression__hint">
              {t('expression.sourceHint')}
            </Typography.Text>
          </div>
        </div>
      )}
    </div>
  );
}
