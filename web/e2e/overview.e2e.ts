import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browser, listDevices, shot, signIn } from './browser';
import { startOwnServer, type OwnServer } from './own-server';

// The overview on a demo farm of its own, where the demo account binds one more probe that never
// reports: a device needing attention, without touching the shared server's farm.
const SILENT = 'ZS0000880001';

let server: OwnServer | null = null;
const base = () => server!.base;
const SLOW = { timeout: 30_000 };

beforeAll(async () => {
  // Two days of history: yesterday is complete, so the stations have its ET0.
  server = await startOwnServer({ name: 'overview', devices: [{ sn: SILENT, type: 2 }], args: ['--demo-days', '2'] });
});
afterAll(async () => {
  await server?.stop();
});

describe('overview', () => {
  test('the fleet at a glance agrees with the device list, and each figure leads to its page', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context, { base: base() });
    const bound = await (await context.request.put(base() + '/apis/poi/scan/bind', { data: { code: server!.labels[SILENT], name: 'North probe' } })).json();
    expect(bound, JSON.stringify(bound)).toMatchObject({ code: 0 });
    const devices = await listDevices(context, base());
    await page.goto(base() + '/apps/overview');
    const figure = page.getByTestId('overview-devices');
    await figure.waitFor(SLOW);
    expect(await figure.innerText()).toContain(String(devices.length));

    // The silent probe is offline, and listed with why.
    const offline = devices.filter((d) => d.status === 'offline').length;
    expect(offline).toBeGreaterThan(0);
    expect(await page.locator('[data-group="offline"]').getAttribute('data-count')).toBe(String(offline));
    const attention = page.getByTestId('overview-attention');
    const row = attention.locator('tr', { hasText: 'North probe' });
    await row.waitFor(SLOW);
    expect(await row.locator('[data-reason="offline"]').innerText()).toBe('Never reported');
    expect(await row.locator('[data-status="offline"]').innerText()).toBe('Offline');
    expect(Number(await page.getByTestId('overview-reason-offline').getAttribute('data-count'))).toBeGreaterThanOrEqual(1);

    // Rain today and ET0 yesterday come from the demo's gauges and stations.
    expect(await page.getByTestId('overview-rain').innerText()).toMatch(/\d+(\.\d+)? ?mm/);
    expect(await page.getByTestId('overview-et0').innerText()).toMatch(/\d+(\.\d+)? ?mm/);
    expect(await page.getByTestId('overview-push').innerText()).toContain('Working');
    await shot(page, 'overview-en.png', { fullPage: true, mouseAway: true });

    // The offline count opens the list filtered to the offline devices.
    await page.locator('[data-group="offline"] a').click();
    await page.waitForURL((u) => u.pathname === '/apps/devices' && u.searchParams.get('status') === 'offline', SLOW);
    await page.getByText('North probe').first().waitFor(SLOW);
  });

  test('in Chinese, light and dark, and in traditional Chinese', async () => {
    for (const [lang, colorScheme, title, file] of [
      ['zh_CN', 'dark', '需关注的设备', 'overview-zh-dark.png'],
      ['zh_CN', 'light', '需关注的设备', 'overview-zh.png'],
      ['zh_TW', 'light', '需關注的設備', 'overview-tw.png'],
    ] as const) {
      const { context, page } = await browser({ lang, colorScheme });
      await signIn(context, { base: base() });
      await page.goto(base() + '/apps/overview');
      await page.getByTestId('overview-attention').waitFor(SLOW);
      expect(await page.getByTestId('overview-attention').innerText()).toContain(title);
      await shot(page, file, { fullPage: true, mouseAway: true });
    }
  });
});
