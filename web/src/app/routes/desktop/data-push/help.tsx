import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { PushHelp } from '@/features/integration/components/push-help';
import { usePageTitle } from '../../../route-handle';

function channelId(value: string | null): number | null {
  const id = Number(value);
  return value !== null && Number.isInteger(id) && id > 0 ? id : null;
}

export default function DataPushHelpRoute() {
  const { t } = useTranslation('integration');
  const title = usePageTitle();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  return (
    <div className="fw-page fw-push fw-push--narrow">
      <Flex align="center" gap={8} className="fw-push__header">
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => void navigate(paths.dataPush.root)} aria-label={t('config.back')} />
        <div>
          <Typography.Title level={3} className="fw-page__title fw-push__title">
            {title}
          </Typography.Title>
          <Typography.Text type="secondary" className="fw-push__subtitle">
            {t('help.subtitle')}
          </Typography.Text>
        </div>
      </Flex>
      <PushHelp
        channelId={channelId(searchParams.get('id'))}
        onChannelChange={(id) => setSearchParams(id === null ? {} : { id: String(id) }, { replace: true })}
      />
    </div>
  );
}
