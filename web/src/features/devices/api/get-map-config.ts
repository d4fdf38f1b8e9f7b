// The tile source is shared with the other maps of the console (src/lib/map-config.ts).
export { FALLBACK_MAP_CONFIG, getMapConfig, getMapConfigQueryOptions, useMapConfig } from '@/lib/map-config';
