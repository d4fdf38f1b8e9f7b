/** Every farm advice query starts with this key. */
export const adviceKey = ['advice'] as const;
export const todayKey = [...adviceKey, 'today'] as const;
export const historyKey = [...adviceKey, 'history'] as const;
export const realityKey = [...adviceKey, 'reality'] as const;
export const strategyKey = [...adviceKey, 'strategy'] as const;
export const devicesKey = [...adviceKey, 'devices'] as const;

/** The device advised on and the other devices of its field (its gauge, station, trap). */
export interface FieldChoice {
  lead: number;
  others: number[];
}

/** The ?field= of a GET: the other devices, comma-separated; none when the field is the lead alone. */
export function fieldParam(field: FieldChoice): string | undefined {
  const others = field.others.filter((id) => id !== field.lead);
  return others.length ? others.join(',') : undefined;
}
