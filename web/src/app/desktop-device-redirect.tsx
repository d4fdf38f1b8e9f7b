import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { paths } from '@/config/paths';
import { getDeviceInfoQueryOptions } from '@/features/poi/api/get-device-info';
import { deviceDetailPath } from '@/lib/detail-path';
import { useLang } from '@/lib/use-lang';
import type { DeviceToResolve } from './mobile-redirect';

/**
 * A phone device screen opened in desktop mode whose path does not say the device's type: the
 * device's desktop detail page, once the server said its type; the device list when it has none.
 */
export function DesktopDeviceRedirect({ hashId, deviceId }: DeviceToResolve) {
  const id = Number(deviceId);
  const ref = Number.isInteger(id) && id > 0 ? { id } : { hashId };
  const info = useQuery({ ...getDeviceInfoQueryOptions(ref, useLang()), refetchInterval: false });
  if (info.isPending) return <PageLoading />;
  const target = info.data ? deviceDetailPath({ page: info.data.page, hashId: info.data.hashId, id: info.data.id }) : null;
  return <Navigate to={target ?? paths.devices} replace />;
}
