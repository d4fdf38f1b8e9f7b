import { Card, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { GrantedDevices } from '@/features/sharing/components/granted-devices';
import { GrantedUsers } from '@/features/sharing/components/granted-users';
import { SharedWithMe } from '@/features/sharing/components/shared-with-me';
import { usePageTitle } from '../../route-handle';

const TABS = ['users', 'devices', 'shared'] as const;
type SharingTab = (typeof TABS)[number];

function isTab(value: string | null): value is SharingTab {
  return (TABS as readonly (string | null)[]).includes(value);
}

export default function SharingRoute() {
  const { t } = useTranslation('sharing');
  const title = usePageTitle();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = searchParams.get('tab');
  const active: SharingTab = isTab(tab) ? tab : 'users';

  return (
    <div className="fw-page fw-sharing">
      <div className="fw-sharing__header">
        <Typography.Title level={3} className="fw-page__title fw-sharing__title">
          {title}
        </Typography.Title>
        <Typography.Text type="secondary">{t('manage.subtitle')}</Typography.Text>
      </div>
      <Card variant="borderless" className="fw-sharing__card">
        <Tabs
          activeKey={active}
          onChange={(key) => setSearchParams({ tab: key }, { replace: true })}
          destroyOnHidden
          items={[
            { key: 'users', label: t('tabs.users'), children: <GrantedUsers /> },
            { key: 'devices', label: t('tabs.devices'), children: <GrantedDevices /> },
            { key: 'shared', label: t('tabs.shared'), children: <SharedWithMe /> },
          ]}
        />
      </Card>
    </div>
  );
}
