import { Collapse, Empty, Flex, Spin, Table, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useOpenApiSpec } from '../api/get-openapi-spec';
import { prettyJson } from '../format';
import { operationsOf, resolveRef, schemaFields, schemaType, type Operation } from '../openapi';
import type { OpenApiDocument, OpenApiSchema } from '../types';
import './integration.css';

const METHOD_COLORS: Record<string, string> = { get: 'blue', post: 'green', put: 'orange', patch: 'gold', delete: 'red' };

function SchemaTable({ doc, schema }: { doc: OpenApiDocument; schema?: OpenApiSchema }) {
  const { t } = useTranslation('integration');
  const rows = schemaFields(doc, schema);
  if (rows.length === 0) {
    const type = schemaType(doc, schema);
    return type ? <Typography.Text code>{type}</Typography.Text> : null;
  }
  return (
    <Table
      size="small"
      pagination={false}
      rowKey={(row) => `${row.depth}-${row.name}-${rows.indexOf(row)}`}
      dataSource={rows}
      columns={[
        {
          key: 'name',
          title: t('reference.field'),
          width: 220,
          render: (_, row) => (
            <span style={{ paddingInlineStart: row.depth * 16 }}>
              <Typography.Text code>{row.name}</Typography.Text>
              {row.required && <span className="fw-api-required"> *</span>}
            </span>
          ),
        },
        { key: 'type', title: t('reference.type'), dataIndex: 'type', width: 200, render: (type: string) => <span className="fw-mono">{type}</span> },
        { key: 'description', title: t('reference.description'), dataIndex: 'description' },
      ]}
    />
  );
}

function OperationDetail({ doc, op }: { doc: OpenApiDocument; op: Operation }) {
  const { t } = useTranslation('integration');
  const body = op.operation.requestBody;
  const bodyContent = body?.content ? Object.entries(body.content)[0] : undefined;
  return (
    <Flex vertical gap={12}>
      {op.operation.description && <Typography.Paragraph className="fw-api-description">{op.operation.description}</Typography.Paragraph>}
      <div>
        <Typography.Text strong>{t('reference.parameters')}</Typography.Text>
        {op.parameters.length === 0 ? (
          <div>
            <Typography.Text type="secondary">{t('reference.none')}</Typography.Text>
          </div>
        ) : (
          <Table
            size="small"
            pagination={false}
            rowKey={(p) => `${p.in}-${p.name}`}
            dataSource={op.parameters}
            columns={[
              {
                key: 'name',
                title: t('reference.name'),
                width: 220,
                render: (_, p) => (
                  <>
                    <Typography.Text code>{p.name}</Typography.Text>
                    {p.required && <span className="fw-api-required"> *</span>}
                  </>
                ),
              },
              { key: 'in', title: t('reference.in'), dataIndex: 'in', width: 90 },
              { key: 'type', title: t('reference.type'), width: 200, render: (_, p) => <span className="fw-mono">{schemaType(doc, p.schema)}</span> },
              { key: 'description', title: t('reference.description'), dataIndex: 'description' },
            ]}
          />
        )}
      </div>
      {bodyContent && (
        <div>
          <Typography.Text strong>
            {t('reference.requestBody')} <Typography.Text type="secondary">({bodyContent[0]})</Typography.Text>
          </Typography.Text>
          {body?.description && <Typography.Paragraph type="secondary">{body.description}</Typography.Paragraph>}
          <SchemaTable doc={doc} schema={bodyContent[1].schema} />
        </div>
      )}
      <div>
        <Typography.Text strong>{t('reference.responses')}</Typography.Text>
        {Object.entries(op.operation.responses ?? {}).map(([code, raw]) => {
          const response = raw.$ref ? (resolveRef<typeof raw>(doc, raw.$ref) ?? raw) : raw;
          const content = response.content ? Object.entries(response.content)[0] : undefined;
          // Refusals share the envelope: their description says enough.
          const success = code.startsWith('2');
          return (
            <div key={code} className="fw-api-response">
              <Flex gap={8} align="baseline">
                <Tag color={success ? 'success' : code.startsWith('4') || code.startsWith('5') ? 'error' : 'default'}>{code}</Tag>
                <span>{response.description}</span>
              </Flex>
              {success && content && <SchemaTable doc={doc} schema={content[1].schema} />}
              {success && content?.[1].example !== undefined && <pre className="fw-code">{prettyJson(content[1].example)}</pre>}
            </div>
          );
        })}
      </div>
    </Flex>
  );
}

/** The open API's reference, read from its OpenAPI 3.1 document: each call with its parameters and answers. */
export function ApiReference() {
  const { t } = useTranslation('integration');
  const spec = useOpenApiSpec();
  const operations = useMemo(() => (spec.data ? operationsOf(spec.data) : []), [spec.data]);
  const groups = useMemo(() => {
    const byTag = new Map<string, Operation[]>();
    for (const op of operations) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
    return [...byTag];
  }, [operations]);

  if (spec.isPending) {
    return (
      <Flex justify="center" className="fw-push-loading">
        <Spin />
      </Flex>
    );
  }
  if (spec.error) return <ServerErrorAlert error={spec.error} />;
  const doc = spec.data;
  const schemes = Object.entries(doc.components?.securitySchemes ?? {});
  return (
    <Flex vertical gap={16} className="fw-api-reference" data-testid="api-reference">
      <div>
        <Typography.Title level={4} className="fw-api-reference__title">
          {doc.info?.title ?? t('reference.title')} {doc.info?.version && <Tag>{doc.info.version}</Tag>}
        </Typography.Title>
        {doc.info?.description && <Typography.Paragraph className="fw-api-description">{doc.info.description}</Typography.Paragraph>}
        {doc.servers && doc.servers.length > 0 && (
          <Typography.Paragraph>
            {t('reference.server')}{' '}
            {doc.servers.map((server) => {
              // A relative server is this site.
              const url = /^https?:\/\//.test(server.url) ? server.url : new URL(server.url, window.location.origin).href.replace(/\/$/, '');
              return (
                <Typography.Text key={server.url} code copyable>
                  {url}
                </Typography.Text>
              );
            })}
          </Typography.Paragraph>
        )}
        {schemes.length > 0 && (
          <div className="fw-api-auth">
            <Typography.Text strong>{t('reference.auth')}</Typography.Text>
            <ul>
              {schemes.map(([name, scheme]) => (
                <li key={name}>
                  <Typography.Text code>{scheme.name ?? name}</Typography.Text>
                  {scheme.in && <Typography.Text type="secondary"> ({scheme.in})</Typography.Text>}
                  {scheme.description && <span>: {scheme.description}</span>}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      {operations.length === 0 ? (
        <Empty description={t('reference.empty')} />
      ) : (
        groups.map(([tag, ops]) => (
          <div key={tag || 'untagged'}>
            {tag && <Typography.Title level={5}>{tag}</Typography.Title>}
            <Collapse
              items={ops.map((op) => ({
                key: op.key,
                label: (
                  <Flex gap={8} align="center" wrap>
                    <Tag color={METHOD_COLORS[op.method] ?? 'default'} className="fw-api-method">
                      {op.method.toUpperCase()}
                    </Tag>
                    <Typography.Text code className="fw-api-path">
                      {op.path}
                    </Typography.Text>
                    <span>{op.operation.summary}</span>
                  </Flex>
                ),
                children: <OperationDetail doc={doc} op={op} />,
              }))}
            />
          </div>
        ))
      )}
    </Flex>
  );
}
