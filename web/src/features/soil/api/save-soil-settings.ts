import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';
import type { SoilSettings, SoilSettingsInput } from '../types';
import { normalizeSoilSettings } from './get-soil-settings';

/** PUT /apis/poi/shang/config. */
export function saveSoilSettings(deviceId: number, input: SoilSettingsInput): Promise<SoilSettings> {
  return api.put<SoilSettings>('/poi/shang/config', input, { params: { id: deviceId } }).then(normalizeSoilSettings);
}

export function useSaveSoilSettings(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SoilSettingsInput) => saveSoilSettings(deviceId, input),
    // Every analysis of the device reads the settings.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: poiKeys.device(deviceId) }),
  });
}
