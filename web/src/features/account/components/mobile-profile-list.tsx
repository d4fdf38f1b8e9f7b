import { List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatDateTime, MISSING } from '@/lib/format';
import type { Profile } from '../types';
import { useLoginMethodLabel } from './login-method';

export function MobileProfileList({ profile }: { profile: Profile }) {
  const { t } = useTranslation('account');
  const methodLabel = useLoginMethodLabel();
  return (
    <List header={t('profile.title')} mode="card">
      <List.Item extra={profile.accountNumber}>{t('profile.accountNumber')}</List.Item>
      <List.Item extra={profile.name || MISSING}>{t('profile.name')}</List.Item>
      <List.Item
        extra={
          profile.loginMethods.length
            ? profile.loginMethods.map((method) => (
                <Tag key={method} color="primary" fill="outline" className="fw-mobile-tag">
                  {methodLabel(method)}
                </Tag>
              ))
            : MISSING
        }
      >
        {t('profile.loginMethods')}
      </List.Item>
      <List.Item extra={formatDateTime(profile.registeredAt)}>{t('profile.registeredAt')}</List.Item>
      <List.Item extra={formatDateTime(profile.lastLoginAt)}>{t('profile.lastLoginAt')}</List.Item>
    </List>
  );
}
