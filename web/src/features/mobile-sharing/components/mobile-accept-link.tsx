import { Button, ErrorBlock, List, Result } from 'antd-mobile';
import { ClockCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { paths } from '@/config/paths';
import { useAcceptLink } from '@/features/sharing/api/accept-link';
import { useLink } from '@/features/sharing/api/get-link';
import { useSession } from '@/features/sharing/api/get-session';
import { isLinkUnavailable } from '@/features/sharing/link-errors';
import type { LinkDescription } from '@/features/sharing/types';
import { errorMessage } from '@/lib/api-client';
import { farmTime } from '@/lib/farm-time';
import { MobilePurviewTags } from './purview-tags';
import '../mobile-sharing.css';

type AvailableLink = Extract<LinkDescription, { status: 'available' }>;

function ToDevices({ primary = false }: { primary?: boolean }) {
  const { t } = useTranslation('sharing');
  const navigate = useNavigate();
  return (
    <Button block color={primary ? 'primary' : 'default'} size="large" onClick={() => void navigate(paths.mobile.devices)}>
      {t('accept.toDevices')}
    </Button>
  );
}

function Unavailable() {
  const { t } = useTranslation('sharing');
  return (
    <div className="fw-m-accept" data-testid="accept-unavailable">
      <Result status="warning" title={t('accept.unavailable')} description={t('accept.unavailableHint')} />
      <div className="fw-m-accept__actions">
        <ToDevices />
      </div>
    </div>
  );
}

function Offer({ link, credential }: { link: AvailableLink; credential: string }) {
  const { t } = useTranslation('sharing');
  const session = useSession();
  const accept = useAcceptLink();
  const transfer = link.kind === 'transfer';

  if (accept.isSuccess) {
    const count = accept.data.devices?.length ?? link.devices.length;
    return (
      <div className="fw-m-accept" data-testid="accept-done">
        <Result status="success" title={t(transfer ? 'accept.transferred' : 'accept.granted')} description={t('accept.acceptedHint', { count })} />
        <div className="fw-m-accept__actions">
          <ToDevices primary />
        </div>
      </div>
    );
  }
  if (isLinkUnavailable(accept.error)) return <Unavailable />;

  return (
    <div className="fw-m-accept" data-testid="accept-offer">
      <div className={transfer ? 'fw-m-accept__head fw-m-accept__head--transfer' : 'fw-m-accept__head'}>
        <div className="fw-m-accept__title">
          {t(transfer ? 'accept.transferTitle' : 'accept.grantTitle', { name: link.from.name, count: link.devices.length })}
        </div>
        <div className="fw-m-accept__expiry">
          <ClockCircleOutline /> {t('accept.expiry', { time: farmTime(link.expireAt).format('HH:mm') })}
        </div>
      </div>
      <List mode="card">
        {link.devices.map((device, index) => (
          <List.Item key={index} description={[device.typeName, device.model].filter(Boolean).join(' · ')}>
            {device.name}
          </List.Item>
        ))}
      </List>
      <List mode="card" header={transfer ? t('accept.transferRights') : t('accept.rights')}>
        <List.Item>{transfer ? <span className="fw-m-accept__warning">{t('accept.transferRightsHint')}</span> : <MobilePurviewTags purview={link.purview} />}</List.Item>
      </List>
      {accept.isError && <div className="fw-mobile-error fw-m-accept__error">{errorMessage(accept.error)}</div>}
      <div className="fw-m-accept__actions">
        {session.data && <p className="fw-m-muted">{t('accept.as', { name: session.data.name || session.data.accountNumber })}</p>}
        <Button
          block
          color={transfer ? 'warning' : 'primary'}
          size="large"
          loading={accept.isPending}
          disabled={!session.data}
          onClick={() => accept.mutate(credential)}
        >
          {t(transfer ? 'accept.acceptTransfer' : 'accept.accept')}
        </Button>
      </div>
    </div>
  );
}

/** A share or transfer link on the phone: what it offers, and accepting it (the phone app is behind a login). */
export function MobileAcceptLink({ credential }: { credential: string }) {
  const { t } = useTranslation();
  const link = useLink(credential);
  if (!credential) return <Unavailable />;
  if (link.isPending) return <PageLoading />;
  if (link.isError) {
    if (isLinkUnavailable(link.error)) return <Unavailable />;
    return <ErrorBlock status="default" title={t('loadFailed')} description={errorMessage(link.error)} />;
  }
  if (link.data.status !== 'available') return <Unavailable />;
  return <Offer link={link.data} credential={credential} />;
}
