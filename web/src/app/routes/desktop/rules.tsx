import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useProfile } from '@/features/account/api/get-profile';
import { useDeleteRule } from '@/features/rules/api/delete-rule';
import { useRules } from '@/features/rules/api/get-rules';
import { useSetRuleEnabled } from '@/features/rules/api/set-rule-enabled';
import { RuleFormDrawer } from '@/features/rules/components/rule-form-drawer';
import { RuleTable } from '@/features/rules/components/rule-table';
import type { Rule } from '@/features/rules/types';
import { PAGE_SIZES } from '@/lib/page';
import { useRowMutation } from '@/lib/use-row-mutation';
import { usePageTitle } from '../../route-handle';

function positive(value: string | null, fallback: number): number {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : fallback;
}

export default function RulesRoute() {
  const { t } = useTranslation('rules');
  const title = usePageTitle();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = positive(searchParams.get('page'), 1);
  const sizeParam = positive(searchParams.get('size'), PAGE_SIZES[0]);
  const size = PAGE_SIZES.includes(sizeParam) ? sizeParam : PAGE_SIZES[0];
  const query = useMemo(() => ({ page, size }), [page, size]);
  const rules = useRules(query);
  const { data: profile } = useProfile();
  const [editing, setEditing] = useState<number | 'new' | null>(null);

  const go = useCallback(
    (next: { page: number; size: number }, replace = false) =>
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          params.set('page', String(next.page));
          params.set('size', String(next.size));
          return params;
        },
        { replace },
      ),
    [setSearchParams],
  );

  // A page past the end (the last rule of a page was deleted): show the last page instead.
  const total = rules.data?.total;
  useEffect(() => {
    if (total === undefined || rules.isPlaceholderData) return;
    const last = Math.max(1, Math.ceil(total / size));
    if (page > last) go({ page: last, size }, true);
  }, [total, rules.isPlaceholderData, page, size, go]);

  const { ids: toggling, run: setEnabled } = useRowMutation(useSetRuleEnabled().mutate);
  const { ids: deleting, run: remove } = useRowMutation(useDeleteRule().mutate);
  const onToggle = useCallback(
    (rule: Rule, enabled: boolean) => setEnabled(rule.id, { id: rule.id, enabled }, enabled ? t('list.enabled') : t('list.disabled')),
    [setEnabled, t],
  );
  const onDelete = useCallback((rule: Rule) => remove(rule.id, rule.id, t('list.deleted')), [remove, t]);

  const onEdit = useCallback((rule: Rule) => setEditing(rule.id), []);

  return (
    <div className="fw-page fw-rules">
      <Flex align="flex-start" justify="space-between" wrap gap={12} className="fw-rules__header">
        <div>
          <Typography.Title level={3} className="fw-page__title fw-rules__title">
            {title}
          </Typography.Title>
          <Typography.Text type="secondary" className="fw-rules__subtitle">
            {t('list.subtitle')}
          </Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="rule-add">
          {t('list.add')}
        </Button>
      </Flex>
      <Card variant="borderless" className="fw-rules__card">
        <ServerErrorAlert error={rules.error} className="fw-rules__error" />
        <RuleTable
          rules={rules.data?.list ?? []}
          total={rules.data?.total ?? 0}
          loading={rules.isFetching}
          page={page}
          size={size}
          toggling={toggling}
          deleting={deleting}
          onPageChange={(nextPage, nextSize) => go({ page: nextSize === size ? nextPage : 1, size: nextSize })}
          onToggle={onToggle}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      </Card>
      <RuleFormDrawer
        target={editing}
        onClose={() => setEditing(null)}
        bound={profile ? { email: Boolean(profile.mail), wechat: profile.wechatBound } : undefined}
      />
    </div>
  );
}
