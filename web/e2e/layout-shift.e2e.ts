import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { baseURL, CHROMIUM_LAUNCH, closeBrowser, detailPath, deviceOf, listDevices, PHONE, settle, signIn } from './browser';

// Pages keep their layout while their data arrives: the space of tables, cards and charts is
// reserved before the answers come. Measured with the Layout Instability API: the sum of every
// layout shift not caused by input (stricter than Lighthouse's CLS, which keeps the worst window).
// The API's answers are held back a little, as on a phone connection, so the page paints its
// loading state first; a shift between the two is what this catches. Unlike the other flows this
// browser shows scrollbars, as a desktop browser does: a scrollbar appearing as the page grows
// narrows it, and whatever then rewraps moves.

const LIMIT = 0.02;
const API_DELAY_MS = 400;
const SLOW = { timeout: 20_000 };

interface Shift {
  value: number;
  sources: string[];
}

declare global {
  interface Window {
    __shifts?: Shift[];
  }
}

let browser: Browser;
let context: BrowserContext;
let page: Page;

/** Records every layout shift of the context's pages, and holds the API's answers back. */
async function watchShifts(context: BrowserContext) {
  await context.addInitScript(() => {
    const shifts: Shift[] = [];
    window.__shifts = shifts;
    const describe = (node: Node | null) => {
      if (!(node instanceof Element)) return String(node?.nodeName ?? '?');
      const cls = [...node.classList].slice(0, 3).join('.');
      return `${node.tagName.toLowerCase()}${cls ? '.' + cls : ''}`;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node: Node | null }[] })[]) {
        if (entry.hadRecentInput) continue;
        shifts.push({ value: entry.value, sources: (entry.sources ?? []).map((s) => describe(s.node)) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await context.route('**/apis/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, API_DELAY_MS));
    await route.continue();
  });
}

beforeAll(async () => {
  browser = await chromium.launch({ ...CHROMIUM_LAUNCH, ignoreDefaultArgs: ['--hide-scrollbars'] });
  // Lighthouse's desktop screen.
  context = await browser.newContext({ viewport: { width: 1350, height: 940 }, reducedMotion: 'reduce' });
  await watchShifts(context);
  page = context.pages()[0] ?? (await context.newPage());
});

afterAll(async () => {
  await closeBrowser(context);
  await browser.close();
});

/** Waits until the page has settled (requests, progress bar, animations, two frames) and sums its layout shifts. */
async function layoutShift(label: string, on: Page = page): Promise<number> {
  const page = on;
  await settle(page);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const shifts = await page.evaluate(() => window.__shifts ?? []);
  const total = shifts.reduce((sum, s) => sum + s.value, 0);
  console.log(`layout shift ${label}: ${total.toFixed(4)}${shifts.length ? '\n' + shifts.map((s) => `  ${s.value.toFixed(4)} ${s.sources.join(', ')}`).join('\n') : ''}`);
  return total;
}

describe('layout shift', () => {
  test('the login page', async () => {
    await page.goto(baseURL() + '/login');
    await page.locator('#login_accountNumber').waitFor(SLOW);
    expect(await layoutShift('login')).toBeLessThanOrEqual(LIMIT);
  });

  test('the device list', async () => {
    await signIn(context);
    await page.goto(baseURL() + '/apps/devices');
    await page.locator('.fw-device-table tr.ant-table-row').first().waitFor(SLOW);
    expect(await layoutShift('device list')).toBeLessThanOrEqual(LIMIT);
  });

  test('the device list, back from a detail page (its rows known at once)', async () => {
    // A device's page opened from the list, then the browser's back button: the list draws its
    // remembered rows in the first frame.
    await page.locator('.fw-device-table a.fw-device-name__link').first().click();
    await page.waitForURL(/\/apps\/poi\//);
    await page.getByTestId('poi-device-name').waitFor(SLOW);
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => (window.__shifts!.length = 0));
    await page.goBack();
    await page.locator('.fw-device-table tr.ant-table-row').first().waitFor(SLOW);
    expect(await layoutShift('device list, back')).toBeLessThanOrEqual(LIMIT);
  });

  test('a detail page with charts', async () => {
    const probe = deviceOf(await listDevices(context), 1);
    await page.goto(baseURL() + detailPath(probe));
    await expect.poll(() => page.locator('[data-testid="poi-chart"] canvas').count(), SLOW).toBeGreaterThan(0);
    expect(await layoutShift('moisture detail')).toBeLessThanOrEqual(LIMIT);
  });

  // The kinds whose pages once moved as their data came: the camera's pictures, the rain gauge's
  // totals and last day, the weather station's figures and readings.
  const KINDS = { ibiosense: 20, pluviometer: 6, tianqi: 7 } as const;

  for (const [kind, typeId] of Object.entries(KINDS)) {
    test(`a ${kind} page`, async () => {
      const device = deviceOf(await listDevices(context), typeId);
      await page.goto(baseURL() + detailPath(device));
      await page.getByTestId('poi-device-name').waitFor(SLOW);
      expect(await layoutShift(`${kind} detail`)).toBeLessThanOrEqual(LIMIT);
    });
  }

  test('the same pages on a phone', async () => {
    // Lighthouse's phone screen; a phone's user agent, so the device's phone screen opens.
    const phone = await browser.newContext({ ...PHONE, viewport: { width: 412, height: 823 }, reducedMotion: 'reduce' });
    try {
      await watchShifts(phone);
      await signIn(phone);
      const devices = await listDevices(phone);
      for (const [kind, typeId] of Object.entries(KINDS)) {
        const tab = await phone.newPage();
        await tab.goto(baseURL() + detailPath(deviceOf(devices, typeId)));
        await tab.waitForURL(/\/apps\/mobile\/poi\/[^/]+\/\d+\/realtime/, SLOW);
        expect(await layoutShift(`${kind} on a phone`, tab)).toBeLessThanOrEqual(LIMIT);
        await tab.close();
      }
    } finally {
      await closeBrowser(phone);
    }
  });
});
