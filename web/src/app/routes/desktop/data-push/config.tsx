import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { ChannelEditor } from '@/features/integration/components/channel-editor';
import { PushHeader } from '@/features/integration/components/push-header';

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
      <PushHeader title={id === null ? t('config.newTitle') : t('config.editTitle')} subtitle={t('config.subtitle')} onBack={back} />
      <ChannelEditor key={id ?? 'new'} id={id} onDone={back} />
    </div>
  );
}
