/** The rain figures follow the readings, which arrive every few minutes. */
export const RAIN_REFRESH_MS = 60_000;
