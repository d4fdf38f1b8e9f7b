import { Button, Card, Form, InputNumber, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useNotice } from '@/lib/notice';
import { useConfig } from '../api/get-config';
import { useUpdateConfig } from '../api/update-config';

export const MIN_INTERVAL = 1;
export const MAX_INTERVAL = 1440;

interface SettingsValues {
  /** Empty keeps the type's interval. */
  reportInterval: number | null;
}

/** The report interval, for people allowed to change the device's settings. */
export function SettingsCard({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const notice = useNotice();
  const config = useConfig(deviceId);
  const update = useUpdateConfig(deviceId, { onSuccess: () => notice.success(t('settings.saved')) });
  return (
    <Card variant="borderless" title={t('settings.title')} className="fw-poi-section fw-card-fill" data-testid="poi-settings">
      {config.data ? (
        <Form<SettingsValues>
          name="poi-settings"
          layout="vertical"
          requiredMark={false}
          initialValues={{ reportInterval: config.data.reportInterval }}
          onFinish={({ reportInterval }) => update.mutate({ reportInterval: reportInterval ?? null })}
          onValuesChange={() => update.isError && update.reset()}
        >
          <Form.Item
            name="reportInterval"
            label={t('settings.interval')}
            extra={t('settings.intervalHint')}
            rules={[
              {
                type: 'integer',
                min: MIN_INTERVAL,
                max: MAX_INTERVAL,
                message: t('settings.intervalRange', { min: MIN_INTERVAL, max: MAX_INTERVAL }),
              },
            ]}
          >
            <InputNumber
              className="fw-poi-interval"
              placeholder={t('settings.intervalDefault')}
              suffix={t('settings.minutesUnit')}
              precision={0}
            />
          </Form.Item>
          <Form.Item className="fw-form-submit">
            <Button type="primary" htmlType="submit" loading={update.isPending}>
              {t('settings.save')}
            </Button>
          </Form.Item>
          <ServerErrorAlert error={update.error} />
        </Form>
      ) : config.error ? (
        <ServerErrorAlert error={config.error} />
      ) : (
        <Typography.Text type="secondary">{t('loading')}</Typography.Text>
      )}
    </Card>
  );
}
