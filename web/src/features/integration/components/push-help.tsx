import { Alert, Card, Descriptions, Flex, Select, Table, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useChannels } from '../api/get-channels';
import { useConnectionData } from '../api/get-connection-data';
import { prettyJson } from '../format';
import { DEFAULT_RETRIES, EXAMPLE_BODY, NODE_RECEIVER, PYTHON_RECEIVER } from '../receiver-snippets';
import './integration.css';

const HEADERS = [
  { name: 'Content-Type', value: 'application/json', key: 'contentType' },
  { name: 'X-Fieldwatch-Delivery', value: '1234', key: 'delivery' },
  { name: 'X-Fieldwatch-Channel', value: '3', key: 'channel' },
  { name: 'X-Fieldwatch-Signature', value: 't=1763884800,v1=5f2b…', key: 'signature' },
  { name: 'User-Agent', value: 'Fieldwatch-Push/1', key: 'userAgent' },
] as const;

const FIELDS = ['deliveryId', 'channelId', 'device', 'ts', 'time', 'values', 'nodes'] as const;

export interface PushHelpProps {
  /** The channel whose address and example are shown; null for the general example. */
  channelId: number | null;
  onChannelChange: (id: number | null) => void;
}

/** What a receiver gets and how to check it: method, headers, body, signature, retries, de-duplication. */
export function PushHelp({ channelId, onChannelChange }: PushHelpProps) {
  const { t } = useTranslation('integration');
  const channels = useChannels({ window: '1h', page: 1, size: 100 });
  const connection = useConnectionData(channelId);
  const retries = connection.data?.retries ?? DEFAULT_RETRIES;
  const example = connection.data?.example ?? EXAMPLE_BODY;

  return (
    <Flex vertical gap={16} className="fw-push-help">
      <Card variant="borderless">
        <Typography.Paragraph>{t('help.intro')}</Typography.Paragraph>
        <Flex align="center" gap={8} wrap>
          <Typography.Text>{t('help.channel')}</Typography.Text>
          <Select<number | 'none'>
            value={channelId ?? 'none'}
            onChange={(next) => onChannelChange(next === 'none' ? null : next)}
            options={[
              { value: 'none', label: t('help.anyChannel') },
              ...(channels.data?.list ?? []).map((channel) => ({ value: channel.id, label: channel.name })),
            ]}
            popupMatchSelectWidth={false}
            className="fw-push-filter"
            aria-label={t('help.channel')}
          />
        </Flex>
        <ServerErrorAlert error={connection.error} className="fw-push-help__error" />
      </Card>

      <Card variant="borderless" title={t('help.requestTitle')}>
        <Descriptions
          column={1}
          size="small"
          bordered
          items={[
            { key: 'method', label: t('help.method'), children: <Typography.Text code>{connection.data?.method ?? 'POST'}</Typography.Text> },
            {
              key: 'url',
              label: t('help.url'),
              children: connection.data ? <Typography.Text code copyable>{connection.data.url}</Typography.Text> : t('help.urlAny'),
            },
            { key: 'timeout', label: t('help.timeout'), children: t('help.timeoutValue') },
          ]}
        />
        <Typography.Title level={5} className="fw-push-help__subtitle">
          {t('help.headersTitle')}
        </Typography.Title>
        <Table
          size="small"
          pagination={false}
          rowKey="name"
          dataSource={HEADERS.map((header) => ({ ...header, meaning: t(`help.headers.${header.key}`) }))}
          columns={[
            { key: 'name', title: t('help.headerName'), dataIndex: 'name', width: 220, render: (name: string) => <Typography.Text code>{name}</Typography.Text> },
            { key: 'value', title: t('help.headerExample'), dataIndex: 'value', width: 220, render: (value: string) => <span className="fw-mono">{value}</span> },
            { key: 'meaning', title: t('help.headerMeaning'), dataIndex: 'meaning' },
          ]}
        />
        <Typography.Title level={5} className="fw-push-help__subtitle">
          {t('help.bodyTitle')}
        </Typography.Title>
        <Flex gap={16} wrap className="fw-push-help__body">
          <pre className="fw-code fw-push-help__example" data-testid="help-example">
            {prettyJson(example)}
          </pre>
          <dl className="fw-push-help__fields">
            {FIELDS.map((field) => (
              <div key={field}>
                <dt>
                  <Typography.Text code>{field}</Typography.Text>
                </dt>
                <dd>{t(`help.fields.${field}`)}</dd>
              </div>
            ))}
          </dl>
        </Flex>
      </Card>

      <Card variant="borderless" title={t('help.signatureTitle')}>
        <Typography.Paragraph>{t('help.signatureIntro')}</Typography.Paragraph>
        <pre className="fw-code">{'X-Fieldwatch-Signature: t=<unix seconds>,v1=hex(HMAC-SHA256(secret, "<t>.<body>"))'}</pre>
        <ol className="fw-push-help__steps">
          <li>{t('help.signatureStep1')}</li>
          <li>{t('help.signatureStep2')}</li>
          <li>{t('help.signatureStep3')}</li>
          <li>{t('help.signatureStep4')}</li>
        </ol>
        <Alert type="info" showIcon title={t('help.secretNote')} className="fw-push-help__note" />
        <Tabs
          items={[
            { key: 'node', label: 'Node.js', children: <pre className="fw-code fw-code--full" data-testid="snippet-node">{NODE_RECEIVER}</pre> },
            { key: 'python', label: 'Python', children: <pre className="fw-code fw-code--full" data-testid="snippet-python">{PYTHON_RECEIVER}</pre> },
          ]}
        />
      </Card>

      <Card variant="borderless" title={t('help.retriesTitle')}>
        <ul className="fw-push-help__steps">
          <li>{t('help.retriesAck')}</li>
          <li>{t('help.retriesSchedule', { count: retries.length, schedule: retries.join(', ') })}</li>
          <li>{t('help.retriesFail')}</li>
          <li>{t('help.retriesOrder')}</li>
          <li>{t('help.retriesDedupe')}</li>
        </ul>
      </Card>
    </Flex>
  );
}
