import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listOf } from '@/lib/page';
import { poiKeys } from '@/lib/poi-keys';
import { rangeParams, type Range } from '@/lib/time-range';
import type { IrrigationRecognition } from '../types';

/** GET /apis/poi/shang/irriRecognition: the irrigation and rain events the moisture readings show. */
export function getIrrigationRecognition(deviceId: number, range: Range, signal?: AbortSignal): Promise<IrrigationRecognition> {
  return api
    .get<IrrigationRecognition>('/poi/shang/irriRecognition', { params: { id: deviceId, ...rangeParams(range) }, signal })
    .then((data) => ({ ...data, pulses: listOf(data.pulses).map((pulse) => ({ ...pulse, layers: listOf(pulse.layers) })) }));
}

export function getIrrigationRecognitionQueryOptions(deviceId: number, range: Range) {
  return queryOptions({
    queryKey: poiKeys.plain(deviceId, 'irri', range.begin ?? null, range.end ?? null),
    queryFn: ({ signal }) => getIrrigationRecognition(deviceId, range, signal),
    placeholderData: keepPreviousData,
  });
}

export function useIrrigationRecognition(deviceId: number, range: Range) {
  return useQuery(getIrrigationRecognitionQueryOptions(deviceId, range));
}
