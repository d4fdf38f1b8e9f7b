import { ActionSheet, Avatar, Button, List, Switch } from 'antd-mobile';
import { ChatCheckOutline, FileOutline, GlobalOutline, SetOutline, TeamOutline, UserOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useProfile } from '@/features/account/api/get-profile';
import { useLogout } from '@/features/account/api/logout';
import { errorMessage } from '@/lib/api-client';
import { initialOf } from '@/lib/format';
import { changeLanguage, currentLanguage, LANGUAGES } from '@/lib/i18n';
import { useNotice } from '@/lib/notice';
import { useThemeMode } from '@/lib/theme';
import { MobilePage } from '../../layouts/mobile-page';

export default function MobileProfileRoute() {
  const { t } = useTranslation(['account', 'common', 'nav', 'advice']);
  const navigate = useNavigate();
  const notice = useNotice();
  const { mode, setMode } = useThemeMode();
  const [choosingLanguage, setChoosingLanguage] = useState(false);
  const { data: profile } = useProfile();
  const logout = useLogout({ onSuccess: () => void navigate(paths.login, { replace: true }) });
  const name = profile?.name || profile?.accountNumber || '';
  const language = currentLanguage();

  return (
    <MobilePage>
      <div className="fw-mobile-me">
        <Avatar src="" fallback={<span className="fw-mobile-me__initial">{initialOf(name)}</span>} className="fw-mobile-me__avatar" />
        <div>
          <div className="fw-mobile-me__name">{name}</div>
          <div className="fw-mobile-me__number">{profile?.accountNumber}</div>
        </div>
      </div>
      <List mode="card">
        <List.Item prefix={<ChatCheckOutline />} description={t('advice:subtitle')} onClick={() => void navigate(paths.mobile.advice)} data-testid="m-advice">
          {t('nav:pages.advice')}
        </List.Item>
      </List>
      <List mode="card" header={t('account:mobile.security')}>
        <List.Item prefix={<UserOutline />} onClick={() => void navigate(paths.mobile.account)}>
          {t('account:menu.account')}
        </List.Item>
        <List.Item prefix={<TeamOutline />} onClick={() => void navigate(paths.mobile.authorization)}>
          {t('nav:pages.authorization')}
        </List.Item>
        <List.Item prefix={<FileOutline />} onClick={() => void navigate(paths.mobile.moistureReport)} data-testid="m-briefings">
          {t('nav:pages.moistureReport')}
        </List.Item>
      </List>
      <List mode="card" header={t('account:mobile.settings')}>
        <List.Item
          prefix={<GlobalOutline />}
          extra={t(`common:languages.${language}`)}
          onClick={() => setChoosingLanguage(true)}
        >
          {t('common:language')}
        </List.Item>
        <List.Item
          prefix={<SetOutline />}
          extra={
            <Switch
              checked={mode === 'dark'}
              onChange={(dark) => setMode(dark ? 'dark' : 'light')}
              aria-label={t('common:theme.label')}
            />
          }
        >
          {t('common:theme.label')}
        </List.Item>
      </List>
      <div className="fw-mobile-me__logout">
        <Button
          block
          color="danger"
          fill="outline"
          loading={logout.isPending}
          onClick={() => logout.mutate(undefined, { onError: (error) => notice.error(errorMessage(error)) })}
        >
          {t('account:menu.logout')}
        </Button>
      </div>
      <ActionSheet
        visible={choosingLanguage}
        onClose={() => setChoosingLanguage(false)}
        cancelText={t('common:actions.cancel')}
        actions={LANGUAGES.map((option) => ({
          key: option,
          text: t(`common:languages.${option}`),
          bold: option === language,
        }))}
        onAction={(action) => {
          setChoosingLanguage(false);
          void changeLanguage(action.key as (typeof LANGUAGES)[number]);
        }}
      />
    </MobilePage>
  );
}
