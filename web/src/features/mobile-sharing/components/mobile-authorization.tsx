import { Button, Tabs } from 'antd-mobile';
import { AddOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { GrantedDevicesList, GrantedUsersList, SharedWithMeList } from './grant-lists';
import { ShareSheet } from './share-sheet';
import '../mobile-sharing.css';

const TABS = ['devices', 'users', 'shared'] as const;
type Tab = (typeof TABS)[number];

/** Authorization management on the phone: what I share, with whom, what is shared with me, and new share links. */
export function MobileAuthorization() {
  const { t } = useTranslation('sharing');
  const [searchParams, setSearchParams] = useSearchParams();
  const [sharing, setSharing] = useState(false);
  const asked = searchParams.get('tab');
  const active: Tab = (TABS as readonly (string | null)[]).includes(asked) ? (asked as Tab) : 'devices';

  return (
    <div className="fw-m-auth">
      <Tabs
        activeKey={active}
        onChange={(key) => setSearchParams({ tab: key }, { replace: true })}
        className="fw-m-auth__tabs"
      >
        <Tabs.Tab key="devices" title={t('tabs.devices')} />
        <Tabs.Tab key="users" title={t('tabs.users')} />
        <Tabs.Tab key="shared" title={t('tabs.shared')} />
      </Tabs>
      <div className="fw-m-auth__body">
        {active === 'devices' && <GrantedDevicesList />}
        {active === 'users' && <GrantedUsersList />}
        {active === 'shared' && <SharedWithMeList />}
      </div>
      <div className="fw-m-auth__action">
        <Button block color="primary" size="large" onClick={() => setSharing(true)}>
          <AddOutline /> {t('mobile.share')}
        </Button>
      </div>
      <ShareSheet visible={sharing} onClose={() => setSharing(false)} />
    </div>
  );
}
