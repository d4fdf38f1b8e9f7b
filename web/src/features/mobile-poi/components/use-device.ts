import { useParams } from 'react-router';
import { useDeviceInfo } from '@/features/poi/api/get-device-info';
import { useLang } from '@/lib/use-lang';

/**
 * The device of the address /apps/mobile/poi/{hashId}/{deviceId}/…; id 0 when the address has
 * none, and then the device is found by its hash alone (a rain gauge's desktop link carries no id).
 */
export function useMobileDevice() {
  const { hashId = '', deviceId = '' } = useParams();
  const lang = useLang();
  const parsed = Number(deviceId);
  const id = Number.isSafeInteger(parsed) && parsed > 0 ? parsed : 0;
  const info = useDeviceInfo(id === 0 && hashId ? { hashId } : { id }, lang);
  return { id, info, lang };
}
