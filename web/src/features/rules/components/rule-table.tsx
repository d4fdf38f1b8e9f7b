import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Empty, Popconfirm, Space, Switch, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, MISSING } from '@/lib/format';
import { PAGE_SIZES } from '@/lib/page';
import type { Rule } from '../types';
import { useRuleDevicesOfTypes } from '../api/get-rule-devices';
import { useExpressionText } from './use-expression-text';
import './rules.css';

export interface RuleTableProps {
  rules: Rule[];
  total: number;
  loading: boolean;
  page: number;
  size: number;
  /** Rules whose switch is being saved. */
  toggling: ReadonlySet<number>;
  /** Rules being deleted. */
  deleting: ReadonlySet<number>;
  onPageChange: (page: number, size: number) => void;
  onToggle: (rule: Rule, enabled: boolean) => void;
  onEdit: (rule: Rule) => void;
  onDelete: (rule: Rule) => void;
}

export function LevelTag({ level }: { level: Rule['level'] }) {
  const { t } = useTranslation('rules');
  return (
    <Tag color={level === 'alarm' ? 'red' : 'blue'} variant="outlined" className="fw-level-tag">
      {t(`levels.${level}`)}
    </Tag>
  );
}

/** Which devices a rule watches: their names when there are one or two, else how many (names on hover). */
function RuleDevices({ ids, names }: { ids: number[]; names: ReadonlyMap<number, string> }) {
  const { t } = useTranslation('rules');
  const known = ids.map((id) => names.get(id)).filter((name): name is string => name !== undefined);
  const separator = t('summary.listSeparator');
  if (ids.length > 0 && ids.length <= 2 && known.length === ids.length) {
    return (
      <Typography.Text type="secondary" className="fw-rule-cell__secondary">
        {known.join(separator)}
      </Typography.Text>
    );
  }
  return (
    <Tooltip title={known.length > 0 ? known.join(separator) : undefined}>
      <Typography.Text type="secondary" className="fw-rule-cell__secondary">
        {t('list.devices', { count: ids.length })}
      </Typography.Text>
    </Tooltip>
  );
}

/** The rules table: server-side paging, an enable switch per rule, conditions in words. */
export function RuleTable({
  rules,
  total,
  loading,
  page,
  size,
  toggling,
  deleting,
  onPageChange,
  onToggle,
  onEdit,
  onDelete,
}: RuleTableProps) {
  const { t } = useTranslation('rules');
  const describe = useExpressionText(rules);
  const typeIds = useMemo(() => [...new Set(rules.map((rule) => rule.typeId))], [rules]);
  const { devices } = useRuleDevicesOfTypes(typeIds);
  const deviceNames = useMemo(() => new Map(devices.map((device) => [device.id, device.name])), [devices]);

  const columns = useMemo<TableColumnsType<Rule>>(
    () => [
      {
        key: 'name',
        title: t('columns.name'),
        dataIndex: 'name',
        width: 136,
        fixed: 'left',
        render: (name: string, rule) => (
          <Typography.Link onClick={() => onEdit(rule)} className="fw-rule-name">
            {name}
          </Typography.Link>
        ),
      },
      {
        key: 'devices',
        title: t('columns.devices'),
        dataIndex: 'typeName',
        width: 160,
        render: (typeName: string, rule) => (
          <div className="fw-rule-cell">
            <span>{typeName || MISSING}</span>
            <RuleDevices ids={rule.deviceIds} names={deviceNames} />
          </div>
        ),
      },
      {
        key: 'level',
        title: t('columns.level'),
        dataIndex: 'level',
        width: 96,
        render: (level: Rule['level']) => <LevelTag level={level} />,
      },
      {
        key: 'conditions',
        title: t('columns.conditions'),
        dataIndex: 'expressions',
        render: (_, rule) => (
          <ul className="fw-rule-conditions">
            {rule.expressions.map((expression, index) => (
              <li key={expression.expressionId}>
                {index > 0 && <span className="fw-rule-conditions__and">{t('list.and')}</span>}
                {describe(rule, expression)}
              </li>
            ))}
          </ul>
        ),
      },
      {
        key: 'notify',
        title: t('columns.notify'),
        dataIndex: 'notify',
        width: 150,
        render: (notify: Rule['notify'], rule) => (
          <div className="fw-rule-cell">
            {notify.length === 0 ? (
              <Typography.Text type="secondary">{t('notify.none')}</Typography.Text>
            ) : (
              <span>{notify.map((method) => t(`notify.${method}`)).join(t('summary.listSeparator'))}</span>
            )}
            <Typography.Text type="secondary" className="fw-rule-cell__secondary">
              {t('list.silent', { period: t(`silent.${rule.silentHours}`) })}
            </Typography.Text>
          </div>
        ),
      },
      {
        key: 'enabled',
        title: t('columns.enabled'),
        dataIndex: 'enabled',
        width: 100,
        render: (enabled: boolean, rule) => (
          <Switch
            checked={enabled}
            loading={toggling.has(rule.id)}
            onChange={(next) => onToggle(rule, next)}
            aria-label={t('list.enableLabel', { name: rule.name })}
          />
        ),
      },
      {
        key: 'created',
        title: t('columns.created'),
        dataIndex: 'createTime',
        width: 124,
        render: (time: number) => {
          const [date, clock] = formatDateTime(time).split(' ');
          return (
            <div className="fw-rule-cell">
              <span>{date}</span>
              {clock && (
                <Typography.Text type="secondary" className="fw-rule-cell__secondary">
                  {clock}
                </Typography.Text>
              )}
            </div>
          );
        },
      },
      {
        key: 'actions',
        title: t('columns.actions'),
        width: 96,
        fixed: 'right',
        render: (_, rule) => (
          <Space size={4}>
            <Tooltip title={t('list.edit')}>
              <Button type="text" size="small" icon={<EditOutlined />} aria-label={t('list.edit')} onClick={() => onEdit(rule)} />
            </Tooltip>
            <Popconfirm
              title={t('list.deleteTitle', { name: rule.name })}
              description={t('list.deleteDescription')}
              okText={t('list.deleteOk')}
              okButtonProps={{ danger: true }}
              onConfirm={() => onDelete(rule)}
            >
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('list.delete')}
                loading={deleting.has(rule.id)}
              />
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [t, describe, deviceNames, toggling, deleting, onToggle, onEdit, onDelete],
  );

  return (
    <Table<Rule>
      className="fw-rule-table"
      rowKey="id"
      columns={columns}
      dataSource={rules}
      loading={loading}
      scroll={{ x: 1040 }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('list.empty')} /> }}
      pagination={{
        current: page,
        pageSize: size,
        total,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES,
        showTotal: (count) => t('list.total', { count }),
        onChange: onPageChange,
      }}
    />
  );
}
