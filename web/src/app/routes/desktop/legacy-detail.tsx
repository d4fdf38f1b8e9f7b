import { Navigate, useSearchParams } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { paths } from '@/config/paths';
import { useDeviceInfo } from '@/features/poi/api/get-device-info';
import { deviceDetailPath } from '@/lib/detail-path';
import { useLang } from '@/lib/use-lang';

/**
 * /console/poi/detail?id= (or ?hashId=): the old address of a device's page, kept for bookmarks and
 * links in old mails. It goes to the device's current page; a device the caller cannot see goes to
 * the device list, as for one that does not exist.
 */
export default function LegacyDetailRoute() {
  const [params] = useSearchParams();
  const lang = useLang();
  const id = Number(params.get('id') ?? params.get('poiId') ?? params.get('deviceId'));
  const hashId = params.get('hashId') ?? '';
  const ref = Number.isSafeInteger(id) && id > 0 ? { id } : { hashId };
  const info = useDeviceInfo(ref, lang);
  if (!('id' in ref) && !hashId) return <Navigate to={paths.devices} replace />;
  if (info.data) return <Navigate to={deviceDetailPath({ page: info.data.page, hashId: info.data.hashId, id: info.data.id }) ?? paths.devices} replace />;
  if (info.error) {
    return 'status' in info.error && (info.error as { status: number | null }).status === 404 ? <Navigate to={paths.devices} replace /> : <ServerErrorAlert error={info.error} />;
  }
  return <PageLoading />;
}
