/**
 * Which device-table columns fit a width. Every column has a width and a priority; the columns of
 * priority 0 always show, the others join in priority order while the table still fits, so a
 * narrower window drops the least important first and never scrolls sideways.
 */
export interface FitColumn {
  key: string;
  width: number;
  /** 0: always shown; higher numbers are dropped first. */
  priority: number;
}

/**
 * The keys of the columns to show in `available` pixels beside `reserved` ones (the selection
 * column). An unknown width (0, before layout) shows them all.
 */
export function fittingColumns(columns: readonly FitColumn[], available: number, reserved = 0): Set<string> {
  if (available <= 0) return new Set(columns.map((column) => column.key));
  const shown = new Set<string>();
  let used = reserved;
  for (const column of columns) {
    if (column.priority === 0) {
      shown.add(column.key);
      used += column.width;
    }
  }
  const optional = columns.filter((column) => column.priority > 0).sort((a, b) => a.priority - b.priority);
  for (const column of optional) {
    if (used + column.width > available) break;
    shown.add(column.key);
    used += column.width;
  }
  return shown;
}
