import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseURL, browser, settle, shot, signIn } from './browser';

const SLOW = { timeout: 30_000 };

async function axeProblems(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).exclude('.leaflet-container').analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} :: ${v.nodes[0]?.target.join(' ')}`);
}

describe('ET0 raster data service', () => {
  test('draw an area around the demo stations, see yesterday\u2019s grid, download GeoTIFF and CSV, delete it', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    await page.goto(baseURL() + '/console/service/et0');
    await page.getByTestId('et0-areas').waitFor(SLOW);
    await page.getByTestId('et0-new').click();
    const map = page.getByTestId('et0-map');
    await map.waitFor(SLOW);
    await page.getByText('Click two opposite corners').waitFor();
    // Two corners around the stations the map opened on.
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.08, box.y + box.height * 0.1);
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.mouse.click(box.x + box.width * 0.92, box.y + box.height * 0.9);
    await expect.poll(() => page.getByTestId('et0-draw').innerText()).toMatch(/Area: \d+\.\d{3}, \d+\.\d{3} – \d+\.\d{3}, \d+\.\d{3}/);
    await shot(page, 'et0-draw-en.png');
    await page.getByTestId('et0-name').fill('North district');
    await page.getByTestId('et0-save').click();

    await page.waitForURL(/\/console\/et0\/detail\/\d+$/, SLOW);
    await page.getByTestId('et0-legend').waitFor(SLOW);
    const points = page.getByTestId('et0-points').locator('tbody tr.ant-table-row');
    expect(await points.count()).toBeGreaterThan(0);
    expect(await page.getByTestId('et0-points').innerText()).toContain('Station');
    expect(await page.getByTestId('et0-legend').innerText()).toMatch(/ET0, mm\/day\s*\d+(\.\d+)?\s*\d+(\.\d+)? mm/);
    expect(await page.locator('img.fw-et0-grid').count()).toBe(1);
    await shot(page, 'et0-detail-en.png', { fullPage: true });
    expect(await axeProblems(page)).toEqual([]);

    const [tif] = await Promise.all([page.waitForEvent('download'), page.getByTestId('et0-tif').click()]);
    expect(tif.suggestedFilename()).toMatch(/^et0-North district-\d{8}\.tif$/);
    expect(readFileSync((await tif.path())!).subarray(0, 4).toString('latin1')).toBe('II*\0');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('et0-csv').click()]);
    expect(readFileSync((await csv.path())!, 'utf8').split('\n')[0]).toBe('lat,lng,et0_mm');

    // A day of the forecast, with no forecast service configured here: said plainly.
    await page.getByTestId('et0-days').getByText('forecast').first().click();
    await page.getByText('the forecast has none').waitFor(SLOW);

    // The list has it; deleting asks first.
    await page.goto(baseURL() + '/console/service/et0');
    await page.getByRole('link', { name: 'North district' }).waitFor(SLOW);
    await page.getByRole('button', { name: 'Delete the area North district?' }).click();
    await page.getByRole('button', { name: 'Delete' }).last().click();
    await page.getByText('No areas yet').waitFor(SLOW);
  });

  test('an area in Chinese, dark', async () => {
    const { context, page } = await browser({ lang: 'zh_CN', colorScheme: 'dark' });
    await signIn(context);
    const devices = (await (await context.request.get(baseURL() + '/apis/devices?category=meteorology&size=100')).json()).data.list as { lat: number; lng: number }[];
    const lats = devices.map((d) => d.lat);
    const lngs = devices.map((d) => d.lng);
    const res = await context.request.post(baseURL() + '/apis/et0/areas', {
      data: { name: '示范县', west: Math.min(...lngs) - 0.1, south: Math.min(...lats) - 0.1, east: Math.max(...lngs) + 0.1, north: Math.max(...lats) + 0.1 },
    });
    const { id } = (await res.json()).data as { id: number };
    await page.goto(`${baseURL()}/console/et0/detail/${id}`);
    await page.getByTestId('et0-legend').waitFor(SLOW);
    expect(await page.getByTestId('et0-detail').innerText()).toContain('留一法交叉验证');
    await shot(page, 'et0-detail-zh-dark.png', { fullPage: true });
    expect(await axeProblems(page)).toEqual([]);
    await context.request.delete(`${baseURL()}/apis/et0/areas/${id}`);
  });
});
