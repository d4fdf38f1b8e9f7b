/** Sorts I-D events' points for the log-log chart: [duration h, mean intensity mm/h]. */
export function idPoints(events: readonly { hours: number; intensity: number; exceeded: boolean }[], exceeded: boolean): [number, number][] {
  return events.filter((e) => e.exceeded === exceeded && e.hours > 0 && e.intensity > 0).map((e) => [e.hours, e.intensity]);
}
