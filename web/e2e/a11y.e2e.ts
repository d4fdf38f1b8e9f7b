import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { baseURL, browser, closeBrowser, detailPath, deviceOf, listDevices, openBrowser, PHONE, settle, signIn, type ListedDevice } from './browser';

// axe on every page of the console, in light and dark: no serious or critical violation.
// One browser context per theme; each page is checked as it first shows, then once per tab
// (only the tabs' own region, after the click), and each dialog-free state is checked whole.

/** One device of each detail page kind (the richest type where a kind has several), as poi.e2e.ts. */
const KIND_TYPES: Record<string, number> = {
  tianqi: 7,
  pluviometer: 6,
  moisture: 1,
  'zhi-shang': 21,
  dcr004: 3,
  'shan-jing': 8,
  liquidometer: 19,
  ibiosense: 20,
  'yun-yao': 10,
};

const SLOW = { timeout: 20_000 };

interface Found {
  page: string;
  rule: string;
  impact: string;
  nodes: number;
  targets: string[];
}

/** Every serious or critical violation, by theme, for the summary printed after the run. */
const found: Record<string, Found[]> = { light: [], dark: [] };

/** Runs axe (on the whole page, or the part a selector names) and returns its serious and critical violations. */
async function audit(page: Page, label: string, theme: string, include?: string): Promise<Found[]> {
  await settle(page);
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const bad = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ page: label, rule: v.id, impact: v.impact!, nodes: v.nodes.length, targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} :: ${n.failureSummary ?? ''}`) }));
  found[theme].push(...bad);
  return bad;
}

/** Clicks every tab the page shows, one after another, and checks the tab set after each. */
async function auditTabs(page: Page, label: string, theme: string): Promise<Found[]> {
  const bad: Found[] = [];
  // Names first: a tab that navigates may draw its tab set anew.
  const names = await page
    .getByRole('tab', { selected: false })
    .evaluateAll((tabs) => tabs.filter((t) => t.getAttribute('aria-disabled') !== 'true' && (t as HTMLElement).offsetParent !== null).map((t) => (t.textContent ?? '').trim()));
  for (const name of names) {
    const tab = page.getByRole('tab', { name, exact: true, selected: false }).first();
    if ((await tab.count()) === 0) continue;
    await tab.click();
    await expect.poll(() => page.getByRole('tab', { name, exact: true, selected: true }).count()).toBeGreaterThan(0);
    const selected = page.getByRole('tab', { name, exact: true, selected: true }).first();
    await selected.evaluate((el) => el.closest('.ant-tabs, .adm-tabs')?.setAttribute('data-axe-scope', ''));
    bad.push(...(await audit(page, `${label} [${name}]`, theme, '[data-axe-scope]')));
    await page.evaluate(() => document.querySelectorAll('[data-axe-scope]').forEach((el) => el.removeAttribute('data-axe-scope')));
  }
  return bad;
}

async function visit(page: Page, path: string) {
  await page.goto(baseURL() + path);
  await settle(page);
}

for (const theme of ['light', 'dark'] as const) {
  describe(`accessibility (${theme})`, () => {
    let context: BrowserContext;
    let page: Page;
    let devices: ListedDevice[];

    beforeAll(async () => {
      context = await openBrowser({ colorScheme: theme });
      page = context.pages()[0] ?? (await context.newPage());
    });
    afterAll(async () => {
      await closeBrowser(context);
    });

    test('the login page', async () => {
      await visit(page, '/login');
      await page.locator('#login_accountNumber').waitFor();
      expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);
      const bad = await audit(page, 'login', theme);
      bad.push(...(await auditTabs(page, 'login', theme)));
      expect(bad).toEqual([]);
    });

    test('the device list and the map', async () => {
      await signIn(context);
      devices = await listDevices(context);
      await visit(page, '/apps/devices');
      await page.locator('.fw-device-table tr.ant-table-row').first().waitFor(SLOW);
      const bad = await audit(page, 'devices', theme);
      await visit(page, '/apps/devices?view=map');
      await page.locator('.leaflet-container').waitFor(SLOW);
      bad.push(...(await audit(page, 'devices map', theme)));
      expect(bad).toEqual([]);
    });

    for (const [kind, typeId] of Object.entries(KIND_TYPES)) {
      test(`the ${kind} detail page, every tab`, async () => {
        const device = deviceOf(devices, typeId);
        await visit(page, detailPath(device));
        await expect.poll(() => page.getByTestId('poi-device-name').innerText(), SLOW).toBe(device.name);
        await expect.poll(() => page.locator('[data-testid="poi-chart"] canvas').count(), SLOW).toBeGreaterThan(0);
        const bad = await audit(page, `poi ${kind}`, theme);
        bad.push(...(await auditTabs(page, `poi ${kind}`, theme)));
        expect(bad).toEqual([]);
      });
    }

    test('the overview', async () => {
      await visit(page, '/apps/overview');
      await page.getByTestId('overview-types').waitFor(SLOW);
      const bad = await audit(page, 'overview', theme);
      bad.push(...(await auditTabs(page, 'overview', theme)));
      expect(bad).toEqual([]);
    });

    test('the farm advice', async () => {
      await signIn(context);
      await visit(page, '/apps/advice');
      await page.waitForURL((u) => u.searchParams.has('device'), SLOW);
      await page.getByTestId('advice-strategy').locator('.ant-timeline, .ant-empty').first().waitFor(SLOW);
      // An answer of the embedded advisor in the chat, too.
      await page.getByTestId('advice-suggestion').first().click();
      await expect.poll(() => page.getByTestId('advice-answer').first().getAttribute('data-state'), SLOW).toBe('done');
      const bad = await audit(page, 'advice', theme);
      expect(bad).toEqual([]);
    });

    test('events and rules', async () => {
      await visit(page, '/apps/events');
      const bad = await audit(page, 'events', theme);
      bad.push(...(await auditTabs(page, 'events', theme)));
      await visit(page, '/apps/rules');
      bad.push(...(await audit(page, 'rules', theme)));
      bad.push(...(await auditTabs(page, 'rules', theme)));
      expect(bad).toEqual([]);
    });

    test('data push and the open API', async () => {
      const bad: Found[] = [];
      const channels = (await (await context.request.get(baseURL() + '/apis/integration/channel/list')).json()).data.list as { id: number }[];
      const id = channels[0]?.id;
      for (const [label, path] of [
        ['data push channels', '/console/data/push/'],
        ['data push config', id ? `/console/data/push/config?id=${id}` : '/console/data/push/config'],
        ['data push new', '/console/data/push/config'],
        ['data push log', id ? `/console/data/push/log?channelId=${id}&window=1d` : '/console/data/push/log'],
        ['data push help', '/console/data/push/help'],
        ['open API', '/console/api'],
      ]) {
        await visit(page, path);
        bad.push(...(await audit(page, label, theme)));
        bad.push(...(await auditTabs(page, label, theme)));
      }
      expect(bad).toEqual([]);
    });

    test('account and sharing', async () => {
      await visit(page, '/console/account');
      const bad = await audit(page, 'account', theme);
      bad.push(...(await auditTabs(page, 'account', theme)));
      await visit(page, '/console/authorization');
      bad.push(...(await audit(page, 'sharing', theme)));
      bad.push(...(await auditTabs(page, 'sharing', theme)));
      // The page a share link opens.
      const station = devices.find((d) => !d.slave)!;
      const res = await context.request.put(baseURL() + '/apis/grant/credential', {
        data: { poiIds: [station.id], purview: { rename: false, settings: false, export: true } },
      });
      const link = (await res.json()).data.link as string;
      await page.goto(link);
      await page.getByTestId('accept-offer').waitFor(SLOW);
      bad.push(...(await audit(page, 'sharing accept', theme)));
      expect(bad).toEqual([]);
    });

    test('the phone profile and account', async () => {
      // Phone screens show in mobile mode only (a phone user agent on a narrow screen); a desktop
      // browser is sent to their desktop equivalents.
      const { context: phone, page } = await browser({ ...PHONE, colorScheme: theme });
      await signIn(phone);
      const bad: Found[] = [];
      for (const [label, path] of [
        ['mobile profile', '/apps/mobile/profile'],
        ['mobile account', '/apps/mobile/account'],
        ['mobile devices tab', '/apps/mobile/devices'],
        ['mobile messages tab', '/apps/mobile/messages'],
        ['mobile farm advice', '/apps/mobile/advice'],
      ]) {
        await visit(page, path);
        expect(new URL(page.url()).pathname).toBe(path);
        if (path === '/apps/mobile/advice') await page.getByTestId('advice-today').waitFor(SLOW);
        bad.push(...(await audit(page, label, theme)));
      }
      expect(bad).toEqual([]);
    });
  });
}

afterAll(() => {
  // A summary for the record: rule, page, nodes.
  for (const [theme, list] of Object.entries(found)) {
    const byRule = new Map<string, number>();
    for (const f of list) byRule.set(`${f.rule} | ${f.page}`, (byRule.get(`${f.rule} | ${f.page}`) ?? 0) + f.nodes);
    console.log(`axe ${theme}: ${list.length ? '' : 'no serious or critical violations'}\n${[...byRule].map(([k, n]) => `  ${k} | ${n}`).join('\n')}`);
  }
});
