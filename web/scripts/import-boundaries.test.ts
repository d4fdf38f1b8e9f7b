import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');

/** How many import-boundary errors ESLint reports for `source` placed at `file` (under web/). */
async function boundaryErrors(file: string, source: string): Promise<number> {
  const [result] = await new ESLint({ cwd: web }).lintText(source, { filePath: join(web, file) });
  return result.messages.filter((message) => message.ruleId === 'import/no-restricted-paths').length;
}

// The zones are generated from the folders under src/features, so a new feature is covered
// without touching the config; these cases fail if that generation stops working.
describe('import boundaries', () => {
  it('keeps a domain feature out of another domain feature and out of the poi shell', async () => {
    expect(await boundaryErrors('src/features/soil/probe.ts', "export { RainSummary } from '@/features/rain/components/rain-summary';\n")).toBe(1);
    expect(await boundaryErrors('src/features/tilt/probe.ts', "export { PoiDetailPage } from '../poi/components/poi-detail-page';\n")).toBe(1);
  });

  it('lets a phone feature read the desktop features whose numbers it shows, and no other phone feature', async () => {
    expect(await boundaryErrors('src/features/mobile-poi/probe.ts', "export { useDetect } from '@/features/poi/api/get-detect';\nexport { useRainLatest } from '@/features/rain/api/get-rain-latest';\n")).toBe(0);
    expect(await boundaryErrors('src/features/mobile-poi/probe.ts', "export { useInfiniteSharing } from '@/features/mobile-sharing/api/use-infinite-sharing';\n")).toBe(1);
    expect(await boundaryErrors('src/features/poi/probe.ts', "export { mobileRealtimeType } from '@/features/mobile-poi/lib/kind';\n")).toBe(1);
  });

  it('keeps shared code free of features', async () => {
    expect(await boundaryErrors('src/lib/probe.ts', "export { WeatherSummary } from '@/features/weather/components/weather-summary';\n")).toBe(1);
    expect(await boundaryErrors('src/components/probe.ts', "export { SoilAnalysesCard } from '@/features/soil/components/soil-analyses';\n")).toBe(1);
  });

  it('lets the app compose features and features use shared code', async () => {
    expect(await boundaryErrors('src/app/probe.ts', "export { RainSummary } from '@/features/rain/components/rain-summary';\n")).toBe(0);
    expect(await boundaryErrors('src/features/soil/probe.ts', "export { listOf } from '@/lib/page';\nexport { LazyChart } from '@/components/charts/lazy-chart';\n")).toBe(0);
  });
});
