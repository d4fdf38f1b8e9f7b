import { truncateDecimal } from '@/lib/format';

/** SPEC.md §5: the ET analysis exports at most three years. */
export const MAX_ET_EXPORT_DAYS = 3 * 366;

interface EtRow {
  date: string;
  et0: number | null;
  kc: number | null;
  etc: number | null;
  stage?: string;
}

/** The ET days as CSV; values cut to two decimals, missing as '--'. */
export function etCsv(days: readonly EtRow[]): string {
  const lines = ['date,et0_mm,kc,etc_mm,stage'];
  for (const day of days) lines.push([day.date, truncateDecimal(day.et0), truncateDecimal(day.kc), truncateDecimal(day.etc), day.stage ?? ''].join(','));
  return `${lines.join('\n')}\n`;
}
