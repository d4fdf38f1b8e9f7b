import { useParams } from 'react-router';
import { useDeviceInfo } from '@/features/poi/api/get-device-info';
import { useLang } from '@/lib/use-lang';

/** The device of the address /apps/mobile/poi/{hashId}/{deviceId}/…; id 0 when the address has none. */
export function useMobileDevice() {
  const { deviceId = '' } = useParams();
  const lang = useLang();
  const parsed = Number(deviceId);
  const id = Number.isSafeInteger(parsed) && parsed > 0 ? parsed : 0;
  const info = useDeviceInfo({ id }, lang);
  return { id, info, lang };
}
