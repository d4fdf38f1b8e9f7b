import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { ChannelEditor } from '@/features/integration/components/channel-editor';

function channelId(value: string | null): number | null {
  const id = Number(value);
  return value !== null && Number.isInteger(id) && id > 0 ? id : null;
}

export default function DataPushConfigRoute() {
  const { t } = useTranslation('integration');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const id = channelId(searchParams.get('id'));
  const back = () => void navigate(paths.dataPush.root);

  return (
    <div className="fw-page fw-push fw-push--narrow">
      <Flex align="center" gap={8} className="fw-push__header">
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={back} aria-label={t('config.back')} />
        <div>
          <Typography.Title level={3} className="fw-page__title fw-push__title">
            {id === null ? t('config.newTitle') : t('config.editTitle')}
          </Typography.Title>
          <Typography.Text type="secondary" className="fw-push__subtitle">
            {t('config.subtitle')}
          </Typography.Text>
        </div>
      </Flex>
      <ChannelEditor key={id ?? 'new'} id={id} onDone={back} />
    </div>
  );
}
