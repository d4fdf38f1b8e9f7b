import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, download } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';

/** An area of the ET0 raster data service: a box in WGS 84 degrees. */
export interface ET0Area {
  id: number;
  name: string;
  west: number;
  south: number;
  east: number;
  north: number;
  /** The grid's cell, degrees. */
  cell: number;
  createdAt: number;
}

export interface ET0AreaDetail extends ET0Area {
  days: { day: string; forecast: boolean }[];
}

export interface ET0Point {
  id?: number;
  name: string;
  lat: number;
  lng: number;
  value: number;
  source: 'station' | 'forecast';
  /** The point's value as the others predict it (leave-one-out). */
  predicted: number | null;
}

/** GET /apis/et0/areas/{id}/grid?day=: row 0 at the north edge. */
export interface ET0Grid {
  day: string;
  method: string;
  power: number;
  points: ET0Point[];
  crossValidation: { n: number; mae: number; rmse: number; max: number };
  west: number;
  north: number;
  cell: number;
  cols: number;
  rows: number;
  min: number;
  max: number;
  values: number[];
}

const areasKey = ['et0', 'areas'] as const;

export function useET0Areas() {
  return useQuery({ queryKey: areasKey, queryFn: ({ signal }) => api.get<ET0Area[]>('/et0/areas', { signal }) });
}

export function useET0Area(id: number) {
  return useQuery({ queryKey: [...areasKey, id], queryFn: ({ signal }) => api.get<ET0AreaDetail>(`/et0/areas/${id}`, { signal }), enabled: id > 0 });
}

export function useET0Grid(id: number, day: string | undefined) {
  return useQuery({
    queryKey: [...areasKey, id, 'grid', day],
    queryFn: ({ signal }) => api.get<ET0Grid>(`/et0/areas/${id}/grid`, { params: { day: day ?? '' }, signal }),
    enabled: id > 0 && Boolean(day),
    retry: false,
  });
}

export interface NewArea {
  name: string;
  west: number;
  south: number;
  east: number;
  north: number;
}

export function useCreateET0Area({ onSuccess }: { onSuccess?: (area: ET0Area) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (area: NewArea) => api.post<ET0Area>('/et0/areas', area),
    onSuccess: async (area) => {
      await queryClient.invalidateQueries({ queryKey: areasKey });
      onSuccess?.(area);
    },
  });
}

export function useDeleteET0Area() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/et0/areas/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: areasKey }),
  });
}

/** Downloads a day's grid as GeoTIFF or CSV. */
export function useET0Download() {
  return useMutation({
    mutationFn: async ({ id, day, format }: { id: number; day: string; format: 'tif' | 'csv' }) => {
      const file = await download(`/et0/areas/${id}/grid.${format}`, { params: { day } });
      saveFile(file.blob, file.filename ?? `et0-${day}.${format}`);
    },
  });
}

/** The box around the caller's weather stations, where a new area is drawn. */
export function useStationsBox() {
  return useQuery({
    queryKey: ['et0', 'stations-box'],
    queryFn: async ({ signal }) => {
      const { list } = await api.get<{ list: { lat: number | null; lng: number | null }[] }>('/devices', { params: { category: 'meteorology', size: 100 }, signal });
      const placed = list.filter((d): d is { lat: number; lng: number } => d.lat !== null && d.lng !== null);
      if (placed.length === 0) return null;
      const lats = placed.map((d) => d.lat);
      const lngs = placed.map((d) => d.lng);
      return { west: Math.min(...lngs) - 0.1, east: Math.max(...lngs) + 0.1, south: Math.min(...lats) - 0.1, north: Math.max(...lats) + 0.1 };
    },
    staleTime: 5 * 60_000,
  });
}
