import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, expect, test } from 'vitest';
import { closeBrowser, detailPath, listDevices, openBrowser, presetLanguage, signIn } from './browser';
import { freePort } from './own-server';

/**
 * The walk a new user makes after `make run`: every page of every demo device, every tab of each,
 * and the console's other pages once, in one browser context with one session. Whatever goes wrong
 * on the way is collected and reported together, so one run names every problem.
 */

/** Charts load their code on first use and the machine is shared: give the page time. */
const SLOW = { timeout: 20_000 };

/** What the app draws for a failed call, a crashed route or a device it could not find. */
const FAILED = '.ant-alert-error, .ant-result-error, .ant-result-500, .ant-result-404, .ant-result-403';

/** A transparent 1×1 PNG: tiles cannot be fetched here, and a tile server that answers is what a user has. */
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
  closing = [];
});

/**
 * A server as `make run` starts it on a fresh clone: the demo farm with its default 30 days of
 * history and no mail server (only the ports and the data directory differ). Resolves once the
 * history is stored, as a user who opens the console a minute after `make run` sees it.
 */
async function serveAsMakeRun(): Promise<string> {
  const bin = process.env.FIELDWATCH_BIN ?? path.resolve(__dirname, '../../bin/fieldwatch');
  const data = mkdtempSync(path.join(tmpdir(), 'fieldwatch-e2e-sweep-'));
  const [port, mqttPort] = [await freePort(), await freePort()];
  const child = spawn(bin, ['serve', '--demo', '--addr', `127.0.0.1:${port}`, '--mqtt', `127.0.0.1:${mqttPort}`, '--data', data], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  closing.push(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(data, { recursive: true, force: true });
  });
  let log = '';
  const loaded = new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('demo history loaded')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`fieldwatch exited during start-up (exit code ${code}):\n${log}`)));
  });
  await loaded;
  return `http://127.0.0.1:${port}`;
}

/** Calls under /apis in flight, to know when a click's consequences have arrived. */
function trackCalls(page: Page) {
  let inFlight = 0;
  let last = Date.now();
  const isApi = (url: string) => new URL(url).pathname.startsWith('/apis/');
  page.on('request', (r) => {
    if (isApi(r.url())) {
      inFlight += 1;
      last = Date.now();
    }
  });
  const done = (r: { url(): string }) => {
    if (isApi(r.url())) {
      inFlight -= 1;
      last = Date.now();
    }
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  /** Waits until no call has been in flight for a while, nothing is loading, and charts are drawn. */
  return async function settled() {
    await expect.poll(() => inFlight === 0 && Date.now() - last > 250, { ...SLOW, interval: 50 }).toBe(true);
    await expect
      .poll(() => page.locator('.ant-skeleton, .fw-chart-loading, .ant-spin-spinning, #nprogress, .fw-page-loading').count(), { ...SLOW, interval: 50 })
      .toBe(0);
    await expect.poll(() => inFlight === 0 && Date.now() - last > 150, { ...SLOW, interval: 50 }).toBe(true);
  };
}

/** Where the app writes a figure: reading tiles, key figures, table cells, descriptions. */
const VALUES = '.fw-poi-tile__value, .fw-poi-figure__value, .ant-table-tbody td, .ant-descriptions-item-content, .ant-statistic-content';

/** Whether a block shows a value: a drawn chart, or a figure that is not the "--" of a missing one. */
async function showsValue(block: Locator): Promise<boolean> {
  if ((await block.locator('canvas').count()) > 0) return true;
  const values = await block.locator(VALUES).allInnerTexts();
  // A settings form shows its values in its fields.
  values.push(...(await block.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))));
  return values.some((v) => v.trim() !== '' && v.trim() !== '--');
}

/** The key figures and readings of a block that show "--". */
async function missingFigures(block: Locator): Promise<string[]> {
  const figures = await block.locator('.fw-poi-figure, .fw-poi-tile').all();
  const missing: string[] = [];
  for (const figure of figures) {
    const value = await figure.locator('.fw-poi-figure__value, .fw-poi-tile__value').first().innerText();
    if (value.trim() === '--') missing.push(await figure.locator('.fw-poi-figure__label, .fw-poi-tile__label').first().innerText());
  }
  return missing;
}

test('every tab of every demo device, and every page of the console, shows data without an error', { timeout: 600_000 }, async () => {
  const began = Date.now();
  const base = await serveAsMakeRun();
  const loadedIn = Date.now() - began;
  const context = await openBrowser({ colorScheme: 'light' });
  closing.push(() => closeBrowser(context));
  await presetLanguage(context, 'en_US');
  await context.route(/tile\.openstreetmap\.org|\/tiles?\//, (route) => route.fulfill({ contentType: 'image/png', body: TILE }));
  const page = await context.newPage();
  const settled = trackCalls(page);

  const findings: string[] = [];
  const note = (f: string) => { findings.push(f); console.info(`[${((Date.now() - began) / 1000).toFixed(1)}] ${f}`); };
  let where = 'start';
  page.on('console', (m) => {
    if (m.type() === 'error') note(`${where}: console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => note(`${where}: uncaught: ${e.message}`));
  page.on('response', async (r) => {
    const path = new URL(r.url()).pathname;
    if (!path.startsWith('/apis/')) return;
    if (r.status() >= 400) {
      note(`${where}: HTTP ${r.status()} ${r.request().method()} ${path}`);
      return;
    }
    if (!(r.headers()['content-type'] ?? '').includes('json')) return;
    const answer = await r.json().catch(() => undefined);
    if (answer && typeof answer.code === 'number' && answer.code !== 0) note(`${where}: code ${answer.code} from ${path}: ${answer.message}`);
    if (path === '/apis/poi/shang/irriRecognition') eventsSeen = answer?.data?.pulses?.length ?? null;
  });
  /** How many irrigation or rain events the latest events answer held. */
  let eventsSeen: number | null = null;

  /** Records every failed card shown now, and a block (the page, a tab) without any value. */
  async function check(block: Locator, what: string, valued = true) {
    await settled();
    for (const text of await page.locator(FAILED).allInnerTexts()) note(`${where}: error card: ${text.replace(/\s+/g, ' ').trim()}`);
    for (const text of await block.locator('[data-testid="poi-chart-empty"]').allInnerTexts()) {
      const chart = text.replace(/\s+/g, ' ').trim();
      note(`${where}: empty chart in ${what}: ${chart}`);
    }
    // A month without 5 mm of rain or irrigation (winter on the demo farm) has no infiltration to
    // profile: the tab says so, which is right only when the events answer it drew on held none.
    if (valued && (await block.getByTestId('poi-infiltration-empty').count()) > 0) {
      if (eventsSeen !== 0) note(`${where}: infiltration says there is no event, the events answer held ${eventsSeen}`);
      else console.info(`${where}: no irrigation or rain event in ${what}, as the events answer says`);
      return;
    }
    const missing = await missingFigures(block);
    // Figures a view may leave empty by design (a forecast without --forecast-url) are said, not failed.
    if (missing.length > 0) console.info(`${where}: "--" in ${what}: ${missing.join(', ')}`);
    if (valued && !(await showsValue(block))) note(`${where}: no value in ${what}: ${(await block.innerText()).replace(/\s+/g, ' ').slice(0, 200)}`);
  }

  /** Clicks each tab of a tab bar in turn and checks its panel. */
  async function eachTab(tabs: Locator, what: string, valued = true) {
    const names = await tabs.locator(':scope > .ant-tabs-nav [role="tab"]').allInnerTexts();
    for (const name of names) {
      where = `${where.split(' › ')[0]} › ${what} › ${name}`;
      const tab = tabs.locator(':scope > .ant-tabs-nav').getByRole('tab', { name, exact: true });
      await tab.click();
      const panel = await tab.getAttribute('aria-controls');
      await check(page.locator(`[id="${panel}"]`), `${what} tab "${name}"`, valued);
    }
  }

  await signIn(context, { base });
  const devices = await listDevices(context, base);
  expect(devices.length).toBeGreaterThan(0);

  // SWEEP_ONLY=<regular expression> limits the walk to the device pages of the kinds it matches.
  const only = process.env.SWEEP_ONLY ? new RegExp(process.env.SWEEP_ONLY) : null;
  for (const device of devices.filter((d) => !only || only.test(d.page))) {
    try {
    where = `${device.name} (${device.sn}, type ${device.typeId}, ${device.page})`;
    eventsSeen = null;
    await page.goto(base + detailPath(device));
    await expect.poll(() => page.getByTestId('poi-device-name').innerText(), SLOW).toBe(device.name);
    const body = page.getByTestId('poi-page');
    await check(body, 'the page');
    const readings = await page.getByTestId('poi-reading').allInnerTexts();
    if (readings.length > 0 && readings.every((r) => /--/.test(r))) note(`${where}: every reading is "--"`);

    const history = page.locator('.fw-poi-history');
    const historyTabs = history.locator('.fw-poi-history__tabs');
    if ((await historyTabs.count()) > 0) await eachTab(historyTabs, 'history');
    // Daily statistics of the curves.
    if ((await historyTabs.count()) > 0) await historyTabs.locator(':scope > .ant-tabs-nav [role="tab"]').last().click();
    where = `${where.split(' › ')[0]} › history › daily`;
    const dims = history.locator('.fw-poi-toolbar .ant-segmented').last().locator('.ant-segmented-item');
    await dims.last().click();
    await check(history, 'the daily history');
    await dims.first().click();

    const analyses = page.getByTestId('poi-soil-analyses');
    if ((await analyses.count()) > 0) await eachTab(analyses.locator('.ant-tabs').first(), 'soil analyses');
    where = where.split(' › ')[0];
    } catch (e) { note(`${where}: failed: ${String(e).slice(0, 300)}`); }
  }

  const pages: [string, string, boolean?][] = [
    ['device list', '/apps/devices'],
    ['device map', '/apps/devices?view=map'],
    ['events', '/apps/events'],
    ['rules', '/apps/rules'],
    ['data push channels', '/console/data/push/'],
    ['new data push channel', '/console/data/push/config', false],
    ['data push log', '/console/data/push/log'],
    ['data push help', '/console/data/push/help', false],
    ['open API', '/console/api'],
    // The demo shares nothing and has no other account: these are checked for errors only.
    ['sharing', '/console/authorization', false],
    ['account', '/console/account', false],
  ];
  for (const [name, path, valued = true] of pages) {
    where = name;
    await page.goto(base + path);
    await page.waitForLoadState('networkidle');
    const main = page.locator('.fw-page').first();
    await main.waitFor(SLOW);
    await check(main, name, valued);
    const tabs = main.locator('.ant-tabs').first();
    // The page's first tab has shown its data above; the others (code samples, references) are read for errors.
    if ((await tabs.count()) > 0) await eachTab(tabs, name, false);
  }

  console.info(
    `sweep: history stored in ${(loadedIn / 1000).toFixed(1)} s, then ${devices.length} devices and ${pages.length} pages in ${((Date.now() - began - loadedIn) / 1000).toFixed(1)} s`,
  );
  expect(findings).toEqual([]);
});
