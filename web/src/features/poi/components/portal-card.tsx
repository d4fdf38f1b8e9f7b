import { LinkOutlined, StopOutlined, SyncOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Checkbox, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { formatDateTime } from '@/lib/format';
import { usePortalLink, usePortalLinkChange, type PortalLink } from '../api/portal';
import type { DeviceInfo } from '../types';

/**
 * The owner's switch for the device's unified portal: a page with the device's readings, controls
 * and record that opens without a login for whoever holds its link. The link is shown once, when
 * made; a new link or turning the portal off makes the old one stop working at once.
 */
export function PortalCard({ device }: { device: DeviceInfo }) {
  const { t } = useTranslation('poi');
  const { t: tc } = useTranslation();
  const { modal } = App.useApp();
  const link = usePortalLink(device.id);
  const [made, setMade] = useState<PortalLink | null>(null);
  const [allowControl, setAllowControl] = useState(false);
  const change = usePortalLinkChange(device.id, { onMade: setMade });
  const on = link.data?.enabled ?? false;

  const make = (allow: boolean) => change.mutate({ allowControl: allow });
  const confirmRenew = () =>
    modal.confirm({
      title: t('portal.renewTitle'),
      content: t('portal.renewContent'),
      okText: t('portal.renew'),
      cancelText: tc('actions.cancel'),
      onOk: () => change.mutateAsync({ allowControl: link.data?.allowControl ?? false }).catch(() => undefined),
    });
  const confirmOff = () =>
    modal.confirm({
      title: t('portal.offTitle', { name: device.name }),
      content: t('portal.offContent'),
      okText: t('portal.off'),
      okButtonProps: { danger: true },
      cancelText: tc('actions.cancel'),
      onOk: () =>
        change
          .mutateAsync('off')
          .then(() => setMade(null))
          .catch(() => undefined),
    });

  return (
    <Card variant="borderless" title={t('portal.cardTitle')} className="fw-poi-section" data-testid="poi-portal">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('portal.intro')}</Typography.Text>
        {made?.path && on && (
          <Alert
            type="success"
            showIcon
            data-testid="portal-link"
            title={t('portal.made')}
            description={
              <Typography.Text code copyable className="fw-poi-access__code">
                {window.location.origin + made.path}
              </Typography.Text>
            }
          />
        )}
        {link.data &&
          (on ? (
            <Typography.Text data-testid="portal-state">
              {t('portal.onSince', { time: formatDateTime(link.data.createdAt ?? 0) })}{' '}
              {link.data.allowControl ? t('portal.withControl') : t('portal.viewOnlyShort')}
            </Typography.Text>
          ) : (
            <Checkbox checked={allowControl} onChange={(e) => setAllowControl(e.target.checked)} data-testid="portal-allow-control">
              {t('portal.allowControl')}
            </Checkbox>
          ))}
        <ServerErrorAlert error={link.error ?? change.error} />
        <Flex gap={8} wrap>
          {on ? (
            <>
              <Button icon={<SyncOutlined />} loading={change.isPending} onClick={confirmRenew} data-testid="portal-renew">
                {t('portal.renew')}
              </Button>
              <Button danger icon={<StopOutlined />} onClick={confirmOff} data-testid="portal-off">
                {t('portal.off')}
              </Button>
            </>
          ) : (
            <Button type="primary" icon={<LinkOutlined />} loading={change.isPending} disabled={!link.data} onClick={() => make(allowControl)} data-testid="portal-on">
              {t('portal.on')}
            </Button>
          )}
        </Flex>
      </Flex>
    </Card>
  );
}
