/**
 * Wind levels and directions (SPEC.md §9).
 *
 * A level starts at its threshold (GB/T 28591: level 1 is 0.3–1.5 m/s, level 2 1.6–3.3 m/s, …),
 * so a speed exactly on a threshold belongs to the higher level.
 */
export const WIND_LEVEL_THRESHOLDS = [
  0.3, 1.6, 3.4, 5.5, 8, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7, 37, 41.5, 46.2, 51, 56.1,
] as const;

export const MAX_WIND_LEVEL = WIND_LEVEL_THRESHOLDS.length; // 17

/** The wind level 0–17 of a speed in m/s; null when the speed is missing or impossible. */
export function windLevel(speed: number | null | undefined): number | null {
  if (speed === null || speed === undefined || !Number.isFinite(speed) || speed < 0) return null;
  let level = 0;
  for (const threshold of WIND_LEVEL_THRESHOLDS) {
    if (speed >= threshold) level += 1;
    else break;
  }
  return level;
}

/** Eight compass sectors, clockwise from north; wind is named for where it blows from. */
export const WIND_SECTORS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export type WindSector = (typeof WIND_SECTORS)[number];

/**
 * The sector of a direction in degrees: each reaches 22.5° either side of its compass point, so
 * north is 337.5°–22.5°. A direction exactly on a border belongs to the sector clockwise of it.
 */
export function windSector(degrees: number | null | undefined): WindSector | null {
  if (degrees === null || degrees === undefined || !Number.isFinite(degrees)) return null;
  const normalized = ((degrees % 360) + 360) % 360;
  const index = Math.floor((normalized + 22.5) / 45) % 8;
  return WIND_SECTORS[index];
}
