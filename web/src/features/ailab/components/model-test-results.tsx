import { Card, Flex, Statistic, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { sampleImageSrc } from '../api/samples';
import { elementColor } from '../lib/colors';
import { boxPlacement, elementTotals, formatMillis, formatModelValue } from '../lib/model-view';
import type { Model, ModelTest, ModelValue, Sample, SampleOutput } from '../types';

/** Each element's value, by the model's kind, with its unit. */
function Values({ kind, values, colorOf }: { kind: Model['kind']; values: ModelValue[]; colorOf: (identifier: string) => string }) {
  return (
    <dl className="fw-model-values" data-testid="test-values">
      {values.map((value) => (
        <div key={value.identifier} className="fw-model-values__row" data-element={value.identifier}>
          <dt>
            <span className="fw-lab-swatch" style={{ background: colorOf(value.identifier) }} aria-hidden /> {value.name}
          </dt>
          <dd data-testid="test-value">
            <span className="fw-model-values__number">{formatModelValue(kind, value.value)}</span>
            {value.unit && kind !== 'classes' ? <span className="fw-model-values__unit"> {value.unit}</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A sample's picture with the boxes the model found drawn over it, where it found them. */
function Picture({ output, colorOf, nameOf }: { output: SampleOutput; colorOf: (identifier: string) => string; nameOf: (identifier: string) => string }) {
  const { t } = useTranslation('ailab');
  const size = { width: output.width, height: output.height };
  return (
    <figure className="fw-model-picture" style={{ aspectRatio: output.width > 0 && output.height > 0 ? `${output.width} / ${output.height}` : undefined }}>
      <img src={sampleImageSrc({ id: output.sampleId })} alt={t('test.pictureAlt', { id: output.sampleId, count: output.boxes.length })} />
      {output.boxes.map((box, index) => {
        const place = boxPlacement(box, size);
        if (!place) return null;
        const color = colorOf(box.element);
        return (
          <span key={index} className="fw-model-box" style={{ ...place, borderColor: color }} data-testid="test-box" title={`${nameOf(box.element)} ${Math.round(box.score * 100)} %`}>
            <span className="fw-model-box__label" style={{ background: color }}>
              {nameOf(box.element)}
            </span>
          </span>
        );
      })}
    </figure>
  );
}

/** A test's results: the totals and the whole time, then per sample its picture, values and time. */
export function ModelTestResults({ model, test, samples }: { model: Model; test: ModelTest; samples: ReadonlyMap<number, Sample> }) {
  const { t } = useTranslation('ailab');
  const identifiers = useMemo(() => model.manifest.elements.map((element) => element.identifier), [model]);
  const names = useMemo(() => new Map(model.manifest.elements.map((element) => [element.identifier, element.name])), [model]);
  const colorOf = (identifier: string) => elementColor(identifiers, identifier);
  const nameOf = (identifier: string) => names.get(identifier) ?? identifier;
  const totals = elementTotals(test.outputs);

  return (
    <section aria-labelledby="model-test-results" data-testid="model-test-results">
      <Typography.Title level={5} id="model-test-results" className="fw-model-results__title">
        {t('test.results')}
      </Typography.Title>
      <Flex gap={32} wrap className="fw-lab__toolbar">
        <Statistic title={t('test.summary', { count: test.outputs.length })} value={formatMillis(test.millis)} data-testid="test-total-time" />
        {test.outputs.length > 1
          ? totals.map((total) => (
              <Statistic key={total.identifier} title={t('test.totalOf', { name: total.name })} value={formatModelValue(test.kind, total.value)} suffix={test.kind === 'classes' ? undefined : total.unit} />
            ))
          : null}
      </Flex>
      <Flex vertical gap={12}>
        {test.outputs.map((output) => {
          const sample = samples.get(output.sampleId);
          return (
            <Card key={output.sampleId} size="small" className="fw-model-result" data-testid="test-result" data-sample={output.sampleId}>
              <div className="fw-model-result__body">
                <Picture output={output} colorOf={colorOf} nameOf={nameOf} />
                <div className="fw-model-result__side">
                  <Typography.Text strong>{t('test.sample', { id: output.sampleId })}</Typography.Text>
                  {sample ? (
                    <Typography.Text type="secondary" className="fw-model-meta">
                      {sample.deviceName || t('samples.uploaded')} · {formatDateTime(sample.sampleTime)}
                    </Typography.Text>
                  ) : null}
                  <Values kind={output.kind} values={output.values} colorOf={colorOf} />
                  {output.kind === 'boxes' ? <Typography.Text type="secondary">{t('test.boxes', { count: output.boxes.length })}</Typography.Text> : null}
                  <Typography.Text type="secondary" data-testid="test-millis">
                    {t('test.time', { time: formatMillis(output.millis) })}
                  </Typography.Text>
                </div>
              </div>
            </Card>
          );
        })}
      </Flex>
    </section>
  );
}
