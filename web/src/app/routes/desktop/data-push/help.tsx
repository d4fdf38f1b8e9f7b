import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { PushHeader } from '@/features/integration/components/push-header';
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
      <PushHeader title={title} subtitle={t('help.subtitle')} onBack={() => void navigate(paths.dataPush.root)} />
      <PushHelp
        channelId={channelId(searchParams.get('id'))}
        onChannelChange={(id) => setSearchParams(id === null ? {} : { id: String(id) }, { replace: true })}
      />
    </div>
  );
}
