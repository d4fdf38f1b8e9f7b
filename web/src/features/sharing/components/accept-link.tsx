import { ClockCircleOutlined, SwapOutlined, ShareAltOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { loginPath, paths } from '@/config/paths';
import { useAcceptLink } from '../api/accept-link';
import { useLink } from '../api/get-link';
import { useSession } from '../api/get-session';
import { isLinkUnavailable } from '../link-errors';
import type { LinkDescription } from '../types';
import { PurviewTags } from './purview-tags';
import './sharing.css';
import { farmTime } from '@/lib/farm-time';

type AvailableLink = Extract<LinkDescription, { status: 'available' }>;

function Unavailable() {
  const { t } = useTranslation('sharing');
  return (
    <Result
      status="warning"
      title={t('accept.unavailable')}
      subTitle={t('accept.unavailableHint')}
      data-testid="accept-unavailable"
      extra={
        <Link to={paths.devices}>
          <Button>{t('accept.toDevices')}</Button>
        </Link>
      }
    />
  );
}

function Accepted({ transfer, count }: { transfer: boolean; count: number }) {
  const { t } = useTranslation('sharing');
  return (
    <Result
      status="success"
      title={t(transfer ? 'accept.transferred' : 'accept.granted')}
      subTitle={t('accept.acceptedHint', { count })}
      data-testid="accept-done"
      extra={
        <Link to={paths.devices}>
          <Button type="primary">{t('accept.toDevices')}</Button>
        </Link>
      }
    />
  );
}

function Offer({ link, credential }: { link: AvailableLink; credential: string }) {
  const { t } = useTranslation('sharing');
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSession();
  const accept = useAcceptLink();
  const transfer = link.kind === 'transfer';

  if (accept.isSuccess) return <Accepted transfer={transfer} count={accept.data.devices?.length ?? link.devices.length} />;
  if (isLinkUnavailable(accept.error)) return <Unavailable />;

  return (
    <Card variant="borderless" className="fw-accept" data-testid="accept-offer">
      <Flex vertical gap={20}>
        <Flex gap={14} align="flex-start">
          <span className={transfer ? 'fw-accept__icon fw-accept__icon--transfer' : 'fw-accept__icon'}>
            {transfer ? <SwapOutlined /> : <ShareAltOutlined />}
          </span>
          <div>
            <Typography.Title level={4} className="fw-accept__title">
              {t(transfer ? 'accept.transferTitle' : 'accept.grantTitle', { name: link.from.name, count: link.devices.length })}
            </Typography.Title>
            <Typography.Text type="secondary" className="fw-accept__expiry">
              <ClockCircleOutlined /> {t('accept.expiry', { time: farmTime(link.expireAt).format('HH:mm') })}
            </Typography.Text>
          </div>
        </Flex>

        <ul className="fw-accept__devices">
          {link.devices.map((device, index) => (
            <li key={index}>
              <span className="fw-accept__device-name">{device.name}</span>
              <Typography.Text type="secondary">
                {device.typeName}
                {device.model ? ` · ${device.model}` : ''}
              </Typography.Text>
            </li>
          ))}
        </ul>

        {transfer ? (
          <Alert type="warning" showIcon title={t('accept.transferRights')} description={t('accept.transferRightsHint')} />
        ) : (
          <div className="fw-accept__rights">
            <Typography.Text type="secondary">{t('accept.rights')}</Typography.Text>
            <div>
              <PurviewTags purview={link.purview} />
            </div>
          </div>
        )}

        <ServerErrorAlert error={accept.error} />

        {session.isPending ? null : session.data ? (
          <Flex justify="space-between" align="center" gap={12} wrap>
            <Typography.Text type="secondary">{t('accept.as', { name: session.data.name || session.data.accountNumber })}</Typography.Text>
            <Button type="primary" size="large" loading={accept.isPending} onClick={() => accept.mutate(credential)}>
              {t(transfer ? 'accept.acceptTransfer' : 'accept.accept')}
            </Button>
          </Flex>
        ) : session.isError ? (
          <ServerErrorAlert error={session.error} />
        ) : (
          <Alert
            type="info"
            showIcon
            title={t('accept.pleaseLogIn')}
            description={t('accept.pleaseLogInHint')}
            data-testid="accept-login"
            action={
              <Button type="primary" onClick={() => void navigate(loginPath(`${location.pathname}${location.search}`))}>
                {t('accept.logIn')}
              </Button>
            }
          />
        )}
      </Flex>
    </Card>
  );
}

/** The page a share or transfer link opens: what it offers, and accepting it once logged in. */
export function AcceptLinkPage({ credential }: { credential: string }) {
  const link = useLink(credential);
  if (!credential) return <Unavailable />;
  if (link.isPending) return <PageLoading />;
  if (link.isError) {
    if (isLinkUnavailable(link.error)) return <Unavailable />;
    return <ServerErrorAlert error={link.error} />;
  }
  if (link.data.status !== 'available') return <Unavailable />;
  return <Offer link={link.data} credential={credential} />;
}
