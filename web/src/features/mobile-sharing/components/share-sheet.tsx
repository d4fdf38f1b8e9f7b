import { Button, Checkbox, Dialog, ErrorBlock, Popup, SearchBar, Selector, Space } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '@/features/account/api/get-profile';
import { useDevices } from '@/features/devices/api/get-devices';
import { useCreateGrantLink } from '@/features/sharing/api/create-grant-link';
import { PURVIEW_KEYS, type PurviewKey, type ShareLink } from '@/features/sharing/types';
import { useWeChat, useWeChatShare } from '@/features/wechat/hooks';
import { errorMessage } from '@/lib/api-client';
import { farmTime } from '@/lib/farm-time';
import { copyText } from '@/lib/copy-text';
import { MobilePurviewTags } from './purview-tags';

/** Copies the link, then says so in a dialog titled "hint" (SPEC §9), or how to copy it by hand. */
function useCopyLink() {
  const { t } = useTranslation(['sharing', 'common']);
  return async (link: string) => {
    let copied = true;
    try {
      await copyText(link);
    } catch {
      copied = false;
    }
    await Dialog.alert({
      title: t('sharing:mobile.hint'),
      content: t(copied ? 'sharing:mobile.copySuccess' : 'sharing:mobile.copyFailed'),
      confirmText: t('common:actions.confirm'),
    });
  };
}

/** The link just made: copy it, or in WeChat send it to a friend from the menu. */
function LinkReady({ link, onAnother }: { link: ShareLink; onAnother: () => void }) {
  const { t } = useTranslation('sharing');
  const copy = useCopyLink();
  const { inWeChat } = useWeChat();
  const { data: profile } = useProfile();
  const from = profile?.name || profile?.accountNumber || '';
  useWeChatShare({
    title: t('accept.grantTitle', { name: from, count: link.devices.length }),
    desc: t('mobile.shareDesc'),
    link: link.link,
    imgUrl: new URL('/favicon.svg', window.location.href).href,
  });
  return (
    <div className="fw-m-share-ready" data-testid="share-link-ready">
      <div className="fw-m-share-ready__title">{t('dialog.grantReady')}</div>
      <p className="fw-m-share-ready__hint">{t('mobile.sendHint')}</p>
      <div className="fw-m-share-ready__link" data-testid="share-link">
        {link.link}
      </div>
      <p className="fw-m-share-ready__expiry">{t('dialog.expiry', { time: farmTime(link.expireAt).format('HH:mm') })}</p>
      <div className="fw-m-share-ready__summary">
        <div className="fw-m-share-ready__count">{t('dialog.devicesCount', { count: link.devices.length })}</div>
        <ul className="fw-m-share-ready__devices">
          {link.devices.map((device) => (
            <li key={device.poiId}>
              {device.name} <span className="fw-m-muted">{device.typeName || device.sn}</span>
            </li>
          ))}
        </ul>
        <div className="fw-m-share-ready__rights">
          <MobilePurviewTags purview={link.purview} />
        </div>
      </div>
      <Space direction="vertical" block>
        <Button block color="primary" size="large" onClick={() => void copy(link.link)}>
          {t('mobile.copyLink')}
        </Button>
        {inWeChat && <p className="fw-m-share-ready__wechat">{t('mobile.sendInWeChat')}</p>}
        <Button block fill="none" color="primary" onClick={onAnother}>
          {t('mobile.newLink')}
        </Button>
      </Space>
    </div>
  );
}

function ShareForm({ onCreated }: { onCreated: (link: ShareLink) => void }) {
  const { t } = useTranslation('sharing');
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<number[]>([]);
  const [rights, setRights] = useState<PurviewKey[]>([]);
  const devices = useDevices({ nameOrSn: search, belong: 'mine', page: 1, size: 100 });
  const create = useCreateGrantLink();
  const list = devices.data?.list ?? [];

  const submit = () =>
    create.mutate(
      {
        poiIds: picked,
        purview: { rename: rights.includes('rename'), settings: rights.includes('settings'), export: rights.includes('export') },
      },
      { onSuccess: onCreated },
    );

  return (
    <div className="fw-m-share-form">
      <div className="fw-m-share-form__label">{t('mobile.chooseDevices')}</div>
      <SearchBar placeholder={t('mobile.search')} onSearch={setSearch} onClear={() => setSearch('')} />
      <div className="fw-m-share-form__devices" data-testid="share-device-choices">
        {devices.isError ? (
          <div className="fw-mobile-error">{errorMessage(devices.error)}</div>
        ) : list.length === 0 && !devices.isPending ? (
          <ErrorBlock status="empty" title={search ? t('mobile.noMatch') : t('mobile.noOwnDevices')} description={null} />
        ) : (
          <Checkbox.Group value={picked} onChange={(value) => setPicked(value as number[])}>
            {list.map((device) => (
              <Checkbox key={device.poiId} value={device.poiId} className="fw-m-share-form__device">
                <span className="fw-m-share-form__name">{device.name}</span>
                <span className="fw-m-share-form__meta">
                  {device.typeName} · {device.sn}
                </span>
              </Checkbox>
            ))}
          </Checkbox.Group>
        )}
      </div>
      <div className="fw-m-share-form__label">{t('dialog.rights')}</div>
      <Selector
        multiple
        columns={3}
        value={rights}
        onChange={(value) => setRights(value)}
        options={PURVIEW_KEYS.map((key) => ({ value: key, label: t(`rights.${key}`) }))}
      />
      <p className="fw-m-share-form__note">{t('dialog.readAlways')}</p>
      {create.isError && <div className="fw-mobile-error">{errorMessage(create.error)}</div>}
      <Button block color="primary" size="large" disabled={picked.length === 0} loading={create.isPending} onClick={submit}>
        {picked.length > 0 ? `${t('dialog.createLink')} · ${t('mobile.selected', { count: picked.length })}` : t('dialog.createLink')}
      </Button>
    </div>
  );
}

/** A bottom sheet that makes a share link for some of my devices, then offers to copy or send it. */
export function ShareSheet({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t } = useTranslation('sharing');
  const [link, setLink] = useState<ShareLink | null>(null);
  const [round, setRound] = useState(0);
  const close = () => {
    setLink(null);
    onClose();
  };
  return (
    <Popup
      visible={visible}
      onMaskClick={close}
      onClose={close}
      showCloseButton
      destroyOnClose
      bodyClassName="fw-m-share-sheet"
    >
      <div className="fw-m-share-sheet__title">{t('mobile.shareTitle')}</div>
      <div className="fw-m-share-sheet__body">
        {link ? (
          <LinkReady
            link={link}
            onAnother={() => {
              setLink(null);
              setRound((n) => n + 1);
            }}
          />
        ) : (
          <ShareForm key={round} onCreated={setLink} />
        )}
      </div>
    </Popup>
  );
}
