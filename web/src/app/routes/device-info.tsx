import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { LabelEntryForm } from '@/features/devices/components/label-entry-form';
import { LabelPanel } from '@/features/devices/components/label-panel';
import { labelPagePath } from '@/features/devices/label';
import { deviceDetailPath, mobileDevicePath } from '@/lib/detail-path';
import { useMobileMode } from '@/lib/mobile-mode';

/**
 * /apps/info?code=…: the page a device's QR label opens (its URL is the label's content). Shows what
 * the label says and adds a free device to the caller's account; without a code, asks for one.
 */
export default function DeviceInfoRoute() {
  const { t } = useTranslation('devices');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const mobile = useMobileMode();
  const code = params.get('code')?.trim() ?? '';
  return (
    <Card variant="borderless" className="fw-label-page" data-testid="device-info-page">
      <Typography.Title level={4} className="fw-label-page__title">
        {t('add.pageTitle')}
      </Typography.Title>
      {code ? (
        <LabelPanel
          key={code}
          code={code}
          links={{
            openDevice: (device) =>
              void navigate(mobile ? mobileDevicePath(device) : (deviceDetailPath(device) ?? paths.devices)),
            toDevices: () => void navigate(mobile ? paths.mobile.devices : paths.devices),
            again: () => void navigate(paths.deviceInfo),
          }}
        />
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('add.intro')}</Typography.Paragraph>
          <LabelEntryForm onSubmit={(next) => void navigate(labelPagePath(next))} />
        </>
      )}
    </Card>
  );
}
