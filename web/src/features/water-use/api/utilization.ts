import { useMutation, useQuery } from '@tanstack/react-query';
import { api, download } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';

/** A device to pick: a field's soil probe or an irrigation device. */
export interface PickableDevice {
  id: number;
  name: string;
  sn: string;
}

/** The caller's devices of a category (soil probes, irrigation devices), to pick from. */
export function useDevicesOf(category: 'soil' | 'irrigation') {
  return useQuery({
    queryKey: ['water-use', 'devices', category],
    queryFn: ({ signal }) => api.get<{ list: PickableDevice[] }>('/devices', { params: { category, size: 100, sort: 'name' }, signal }),
    staleTime: 60_000,
  });
}

export interface UtilizationRequest {
  fieldIds: number[];
  meterIds: number[];
  begin: number;
  end: number;
}

export interface FieldWater {
  id: number;
  name: string;
  sn: string;
  areaMu: number | null;
  crop: string;
  station: { id: number; name: string; distanceKm: number; own: boolean } | null;
  etc: number | null;
  rain: number | null;
  effectiveRain: number | null;
  profileCm: number;
  storageStart: number | null;
  storageEnd: number | null;
  netMm: number | null;
  netM3: number | null;
  missing: string[];
  missingText: string[];
}

export interface MeterWater {
  id: number;
  name: string;
  sn: string;
  grossM3: number;
  days: number;
}

/** POST /apis/exper/coefficient. */
export interface Utilization {
  begin: number;
  end: number;
  fields: FieldWater[];
  meters: MeterWater[];
  netM3: number;
  grossM3: number;
  coefficient: number | null;
  warnings: string[];
  warningText: string[];
}

export function useUtilization() {
  return useMutation({ mutationFn: (body: UtilizationRequest) => api.post<Utilization>('/exper/coefficient', body) });
}

/** The same as an XLSX workbook, saved by the browser. */
export function useUtilizationExport() {
  return useMutation({
    mutationFn: async (body: UtilizationRequest) => {
      const file = await download('/exper/coefficient/export', { method: 'POST', body });
      saveFile(file.blob, file.filename ?? 'irrigation-water-coefficient.xlsx');
    },
  });
}
