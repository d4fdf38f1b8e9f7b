import { PlayCircleOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, Flex, Form, Radio, Select, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, isApiError } from '@/lib/api-client';
import { formatDateTime, MISSING } from '@/lib/format';
import { MAX_TEST_SAMPLES, useTestModel } from '../api/models';
import { sampleImageSrc, useSamples } from '../api/samples';
import { useSets } from '../api/sets';
import type { Model, Sample } from '../types';
import { ModelTestResults } from './model-test-results';

/** Tests a model: on chosen samples or a set version's, showing each sample's values, boxes and time. */
export function ModelTestDrawer({ model, onClose }: { model: Model | null; onClose: () => void }) {
  const { t } = useTranslation('ailab');
  return (
    <Drawer
      open={model !== null}
      onClose={onClose}
      title={model ? t('test.title', { name: model.name, version: model.version }) : ''}
      size="large"
      destroyOnHidden
    >
      {model ? (
        <div data-testid="model-test">
          <ModelTest key={model.id} model={model} />
        </div>
      ) : null}
    </Drawer>
  );
}

type Source = 'samples' | 'set';

function ModelTest({ model }: { model: Model }) {
  const { t } = useTranslation('ailab');
  const samples = useSamples();
  const sets = useSets();
  const test = useTestModel();
  const [source, setSource] = useState<Source>('samples');
  const [sampleIds, setSampleIds] = useState<number[]>([]);
  const [setId, setSetId] = useState<number | undefined>();
  const [missing, setMissing] = useState(false);
  const byId = useMemo(() => new Map((samples.data ?? []).map((sample) => [sample.id, sample])), [samples.data]);
  const full = sampleIds.length >= MAX_TEST_SAMPLES;

  const run = () => {
    const chosen = source === 'samples' ? sampleIds.length > 0 : setId !== undefined;
    setMissing(!chosen);
    if (!chosen) return;
    test.mutate(source === 'samples' ? { modelId: model.id, sampleIds } : { modelId: model.id, setId: setId! });
  };

  const columns: TableColumnsType<Sample> = [
    { title: t('samples.picture'), key: 'picture', width: 80, render: (_, sample) => <img className="fw-lab-thumb" src={sampleImageSrc(sample)} alt="" loading="lazy" /> },
    { title: t('samples.number'), dataIndex: 'id', render: (id: number) => `#${id}` },
    { title: t('samples.deviceName'), dataIndex: 'deviceName', render: (value: string) => value || t('samples.uploaded') },
    { title: t('samples.sampleTime'), dataIndex: 'sampleTime', render: (time: number) => formatDateTime(time) },
    { title: t('samples.tag'), dataIndex: 'tag', render: (tag: string) => tag || MISSING },
  ];

  const setOptions = (sets.data ?? []).map((set) => ({
    value: set.id,
    label: t('test.setOption', { name: set.name, version: set.version, count: set.sampleIds.length }),
    disabled: set.sampleIds.length === 0 || set.sampleIds.length > MAX_TEST_SAMPLES,
  }));

  return (
    <>
      <Form layout="vertical" onFinish={run} data-testid="model-test-form">
        <Form.Item label={t('test.source')}>
          <Radio.Group
            optionType="button"
            value={source}
            onChange={(event) => {
              setSource(event.target.value as Source);
              setMissing(false);
            }}
            options={[
              { value: 'samples', label: t('test.samples') },
              { value: 'set', label: t('test.set') },
            ]}
            data-testid="model-test-source"
          />
        </Form.Item>
        {source === 'samples' ? (
          <Form.Item label={t('test.chosen', { count: sampleIds.length, max: MAX_TEST_SAMPLES })} required validateStatus={missing ? 'error' : undefined}>
            {samples.error ? <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('samples.loadFailed')} description={errorMessage(samples.error)} /> : null}
            <Table<Sample>
              rowKey="id"
              size="small"
              columns={columns}
              dataSource={samples.data ?? []}
              loading={samples.isPending}
              rowSelection={{
                hideSelectAll: true,
                columnWidth: 40,
                selectedRowKeys: sampleIds,
                onChange: (keys) => setSampleIds((keys as number[]).slice(0, MAX_TEST_SAMPLES)),
                getCheckboxProps: (sample) => ({ 'aria-label': t('samples.choose', { id: sample.id }), disabled: full && !sampleIds.includes(sample.id) }),
              }}
              pagination={{ defaultPageSize: 8, hideOnSinglePage: true, showSizeChanger: false }}
              locale={{ emptyText: t('samples.empty') }}
              scroll={{ x: 'max-content' }}
              data-testid="model-test-samples"
            />
          </Form.Item>
        ) : (
          <Form.Item label={t('test.set')} htmlFor="model-test-set" required validateStatus={missing ? 'error' : undefined} extra={t('test.setNote')}>
            {sets.error ? <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('sets.loadFailed')} description={errorMessage(sets.error)} /> : null}
            <Select
              id="model-test-set"
              value={setId}
              onChange={setSetId}
              options={setOptions}
              loading={sets.isPending}
              placeholder={t('test.chooseSet')}
              notFoundContent={t('sets.empty')}
              data-testid="model-test-set"
            />
          </Form.Item>
        )}
        {missing ? <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('test.nothingChosen')} data-testid="model-test-missing" /> : null}
        <Flex justify="flex-end" className="fw-lab__toolbar">
          <Button type="primary" htmlType="submit" icon={<PlayCircleOutlined />} loading={test.isPending} data-testid="model-test-run">
            {t('test.run')}
          </Button>
        </Flex>
      </Form>
      {test.error && !(isApiError(test.error) && (test.error.kind === 'session' || test.error.kind === 'fatal')) ? (
        <Alert type="error" showIcon role="alert" className="fw-lab__toolbar" title={t('test.failed')} description={errorMessage(test.error)} data-testid="model-test-error" />
      ) : null}
      {test.data && !test.isPending ? <ModelTestResults model={model} test={test.data} samples={byId} /> : null}
      {test.isPending ? (
        <Typography.Text type="secondary" role="status">
          {t('test.running')}
        </Typography.Text>
      ) : null}
    </>
  );
}
