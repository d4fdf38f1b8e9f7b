import { Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { farmZoneLabel } from '@/lib/farm-time';
import { formatDateTime, MISSING } from '@/lib/format';
import type { Profile } from '../types';
import { useLoginMethodLabel } from './login-method';

export function ProfileDetails({ profile }: { profile: Profile }) {
  const { t } = useTranslation('account');
  const methodLabel = useLoginMethodLabel();
  return (
    <Descriptions
      column={{ xs: 1, sm: 1, md: 2 }}
      items={[
        { key: 'accountNumber', label: t('profile.accountNumber'), children: profile.accountNumber },
        { key: 'name', label: t('profile.name'), children: profile.name || MISSING },
        { key: 'phone', label: t('profile.phone'), children: profile.phone || MISSING },
        { key: 'mail', label: t('profile.mail'), children: profile.mail || MISSING },
        {
          key: 'wechat',
          label: t('profile.wechat'),
          children: profile.wechatBound ? (
            <Tag color="success">{t('profile.wechatBound')}</Tag>
          ) : (
            <Tag>{t('profile.wechatUnbound')}</Tag>
          ),
        },
        {
          key: 'loginMethods',
          label: t('profile.loginMethods'),
          children: profile.loginMethods.length
            ? profile.loginMethods.map((method) => (
                <Tag key={method} color="blue">
                  {methodLabel(method)}
                </Tag>
              ))
            : MISSING,
        },
        { key: 'registeredAt', label: t('profile.registeredAt'), children: formatDateTime(profile.registeredAt) },
        { key: 'lastLoginAt', label: t('profile.lastLoginAt'), children: formatDateTime(profile.lastLoginAt) },
        { key: 'timezone', label: t('profile.timezone'), children: farmZoneLabel() },
      ]}
    />
  );
}
