import { MailOutlined, MobileOutlined, WechatOutlined } from '@ant-design/icons';
import { Button, Space, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Channel } from '../api/bindings';
import type { Profile } from '../types';
import { AddressDialog } from './address-dialog';
import { WeChatDialog } from './wechat-dialog';

type Open = { kind: Channel | 'wechat'; mode: 'bind' | 'unbind' } | null;

/**
 * The account's e-mail address, phone number and WeChat: where alerts and verification codes go.
 * Each can be bound, changed (a code to the new address) or removed (a code to the bound one).
 */
export function BindingsPanel({ profile }: { profile: Profile }) {
  const { t } = useTranslation('account');
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  const row = (kind: Channel | 'wechat', icon: ReactNode, value: string | null | undefined, bound: boolean) => (
    <li key={kind} className="fw-binding" data-testid={`binding-${kind}`}>
      <span className="fw-binding__icon">{icon}</span>
      <div className="fw-binding__body">
        <Space size={8} wrap className="fw-binding__title">
          <span>{t(`bindings.${kind}.label`)}</span>
          {bound ? <Tag color="success">{t('bindings.boundTag')}</Tag> : <Tag>{t('bindings.unboundTag')}</Tag>}
        </Space>
        {value ? <div className="fw-binding__value">{value}</div> : null}
        <div>
          <Typography.Text type="secondary">{t(`bindings.${kind}.use`)}</Typography.Text>
        </div>
      </div>
      <div className="fw-binding__actions">
        {kind === 'wechat' && bound ? null : (
          <Button type={bound ? 'default' : 'primary'} size="small" onClick={() => setOpen({ kind, mode: 'bind' })}>
            {t(bound ? 'bindings.change' : 'bindings.bind')}
          </Button>
        )}
        {bound ? (
          <Button danger size="small" onClick={() => setOpen({ kind, mode: 'unbind' })}>
            {t('bindings.unbind')}
          </Button>
        ) : null}
      </div>
    </li>
  );

  return (
    <>
      <ul className="fw-bindings">
        {row('email', <MailOutlined />, profile.mail, Boolean(profile.mail))}
        {row('mobile', <MobileOutlined />, profile.phone, Boolean(profile.phone))}
        {row('wechat', <WechatOutlined />, null, profile.wechatBound)}
      </ul>
      {open && open.kind !== 'wechat' ? <AddressDialog channel={open.kind} mode={open.mode} profile={profile} onClose={close} /> : null}
      {open && open.kind === 'wechat' ? <WeChatDialog mode={open.mode} onClose={close} /> : null}
    </>
  );
}
