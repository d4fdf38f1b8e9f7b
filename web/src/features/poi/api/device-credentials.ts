import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poiKeys } from '@/lib/poi-keys';

/** A device's MQTT and HTTP credentials, for its owner (GET /apis/poi/encryption). */
export interface DeviceCredentials {
  sn: string;
  username: string;
  key: string;
  topic: string;
  statusTopic: string;
  mqttHost: string;
  /** 0 when the server runs no MQTT broker of its own. */
  mqttPort: number;
  ingestUrl: string;
  labelCode: string;
  labelUrl: string;
}

export function getCredentials(id: number, signal?: AbortSignal): Promise<DeviceCredentials> {
  return api.get<DeviceCredentials>('/poi/encryption', { params: { id }, signal });
}

export function getCredentialsQueryOptions(id: number) {
  return queryOptions({
    queryKey: poiKeys.plain(id, 'credentials'),
    queryFn: ({ signal }) => getCredentials(id, signal),
    staleTime: 0,
  });
}

/** Loads the credentials only once asked for: a key is not fetched for nothing. */
export function useCredentials(id: number, enabled: boolean) {
  return useQuery({ ...getCredentialsQueryOptions(id), enabled });
}

/** Replaces the device's key (POST /apis/poi/encryption/rotate): the old one stops working at once. */
export function rotateKey(id: number): Promise<DeviceCredentials> {
  return api.post<DeviceCredentials>('/poi/encryption/rotate', undefined, { params: { id } });
}

export function useRotateKey(id: number, { onSuccess }: { onSuccess?: (credentials: DeviceCredentials) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateKey(id),
    onSuccess: (credentials) => {
      queryClient.setQueryData(getCredentialsQueryOptions(id).queryKey, credentials);
      onSuccess?.(credentials);
    },
  });
}
