import { ActionSheet, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Channel } from '../api/bindings';
import type { Profile } from '../types';
import { AddressDialog } from './address-dialog';
import { WeChatDialog } from './wechat-dialog';

type Open = { kind: Channel | 'wechat'; mode: 'bind' | 'unbind' } | null;

/** The phone's list of bindings: tap to bind; a bound one offers change and unbind. */
export function MobileBindings({ profile }: { profile: Profile }) {
  const { t } = useTranslation('account');
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  const tap = (kind: Channel | 'wechat', bound: boolean) => {
    if (!bound) {
      setOpen({ kind, mode: 'bind' });
      return;
    }
    const actions = [
      ...(kind === 'wechat' ? [] : [{ key: 'bind', text: t('bindings.change') }]),
      { key: 'unbind', text: t('bindings.unbind'), danger: true },
    ];
    const sheet = ActionSheet.show({
      actions,
      cancelText: t('bindings.cancel'),
      onAction: (action) => {
        sheet.close();
        setOpen({ kind, mode: action.key === 'unbind' ? 'unbind' : 'bind' });
      },
    });
  };
  const item = (kind: Channel | 'wechat', value: string | null | undefined, bound: boolean) => (
    <List.Item
      key={kind}
      data-testid={`mobile-binding-${kind}`}
      description={t(`bindings.${kind}.use`)}
      extra={bound ? value : t('bindings.unboundTag')}
      onClick={() => tap(kind, bound)}
    >
      {t(`bindings.${kind}.label`)}
    </List.Item>
  );

  return (
    <>
      <List header={t('bindings.title')} mode="card">
        {item('email', profile.mail, Boolean(profile.mail))}
        {item('mobile', profile.phone, Boolean(profile.phone))}
        {item('wechat', t('profile.wechatBound'), profile.wechatBound)}
      </List>
      {open && open.kind !== 'wechat' ? <AddressDialog channel={open.kind} mode={open.mode} profile={profile} onClose={close} /> : null}
      {open && open.kind === 'wechat' ? <WeChatDialog mode={open.mode} onClose={close} /> : null}
    </>
  );
}
