import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, test } from 'vitest';
import { baseURL, closeBrowser, login, openBrowser, presetLanguage, screenshotDir } from './browser';

/** A device as GET /apis/devices lists it; only what these tests need. */
interface ListedDevice {
  id: number;
  hashId: string;
  name: string;
  typeId: number;
  page: string;
  slave: boolean;
}

/** One device of each page kind; the richest type where a kind has several. */
const KIND_TYPES: Record<string, number> = {
  tianqi: 7, // weather with air quality
  pluviometer: 6,
  moisture: 1,
  'zhi-shang': 21, // soil and weather station
  dcr004: 3,
  'shan-jing': 8,
  liquidometer: 19, // host with a slave
  ibiosense: 20, // insect trap with a camera
  'yun-yao': 10,
};

/** Charts load their code on first use and the machine is shared: give the page time. */
const SLOW = { timeout: 20_000 };

let contexts: BrowserContext[] = [];
async function browser(options?: Parameters<typeof openBrowser>[0]) {
  const context = await openBrowser(options);
  contexts.push(context);
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}
afterEach(async () => {
  await Promise.all(contexts.map(closeBrowser));
  contexts = [];
});

/** Waits for the page to settle (requests, progress bar, animations), then saves a full-page screenshot. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0)); // else the sticky top bar lands mid-page
  await page.waitForLoadState('networkidle');
  await page.locator('#nprogress').waitFor({ state: 'detached' });
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  await page.screenshot({ path: path.join(screenshotDir, name), fullPage: true });
}

async function listDevices(page: Page): Promise<ListedDevice[]> {
  return page.evaluate(async () => {
    const res = await fetch('/apis/devices?size=100&sort=name');
    return (await res.json()).data.list;
  });
}

/** The n-th (0-based) non-slave demo device of a type. */
function deviceOf(devices: ListedDevice[], typeId: number, nth = 0): ListedDevice {
  const found = devices.filter((d) => d.typeId === typeId && !d.slave)[nth];
  if (!found) throw new Error(`no demo device of type ${typeId}`);
  return found;
}

function detailPath(d: ListedDevice): string {
  return d.page === 'pluviometer' ? `/apps/poi/pluviometer/${d.hashId}` : `/apps/poi/${d.page}/${d.hashId}/${d.id}`;
}

/** Opens a device's page and waits until its header and at least one drawn chart are there. */
async function openDevice(page: Page, device: ListedDevice) {
  await page.goto(baseURL() + detailPath(device));
  await expect.poll(() => page.getByTestId('poi-device-name').innerText(), SLOW).toBe(device.name);
  await expect.poll(() => page.locator('[data-testid="poi-chart"] canvas').count(), SLOW).toBeGreaterThan(0);
  await page.waitForLoadState('networkidle');
}

async function expectChartsWithData(page: Page) {
  expect(await page.getByTestId('poi-chart-empty').count()).toBe(0);
  // A drawn canvas has a size; an empty or failed chart would show a placeholder instead.
  const size = await page.locator('[data-testid="poi-chart"] canvas').first().boundingBox();
  expect(size?.width ?? 0).toBeGreaterThan(300);
  expect(size?.height ?? 0).toBeGreaterThan(100);
}

describe('device detail pages', () => {
  test('every kind shows its device and charts drawn from its history (zh_CN, light)', async () => {
    const { page } = await browser({ colorScheme: 'light' });
    await login(page);
    const devices = await listDevices(page);
    for (const [kind, typeId] of Object.entries(KIND_TYPES)) {
      const device = deviceOf(devices, typeId);
      await openDevice(page, device);
      expect(page.url()).toContain(`/apps/poi/${kind}/`);
      await expect.poll(() => page.getByTestId('poi-page').getAttribute('data-kind')).toBe(kind);
      await expectChartsWithData(page);
      await expect.poll(() => page.locator('body').innerText(), SLOW).toContain('历史数据');
      await shot(page, `poi-${kind}-light.png`);
    }
  });

  test('every kind in dark mode', async () => {
    const { page } = await browser({ colorScheme: 'dark' });
    await login(page);
    const devices = await listDevices(page);
    for (const [kind, typeId] of Object.entries(KIND_TYPES)) {
      await openDevice(page, deviceOf(devices, typeId));
      await expectChartsWithData(page);
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [r, g, b] = bg.match(/\d+/g)!.map(Number);
      expect(r + g + b, kind).toBeLessThan(200);
      await shot(page, `poi-${kind}-dark.png`);
    }
  });

  test('the weather page reads wind, rain and air quality the SPEC way (en_US)', async () => {
    const { context, page } = await browser({ colorScheme: 'light' });
    await presetLanguage(context, 'en_US');
    await login(page);
    const devices = await listDevices(page);
    const station = deviceOf(devices, 7);
    await openDevice(page, station);
    const latest = await page.evaluate(async (id) => (await (await fetch(`/apis/poi/${id}/detect`)).json()).data.list, station.id);
    const value = (param: string) => (latest as { param: string; value: number }[]).find((r) => r.param === param)?.value;
    const speed = value('windSpeed')!;
    const thresholds = [0.3, 1.6, 3.4, 5.5, 8, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7, 37, 41.5, 46.2, 51, 56.1];
    const level = thresholds.filter((t) => speed >= t).length;
    // The page refreshes its readings every minute: allow the level of the newest report either way.
    await expect.poll(() => page.getByTestId('poi-wind-level').innerText(), SLOW).toMatch(/Level \d+/);
    const shown = Number(/Level (\d+)/.exec(await page.getByTestId('poi-wind-level').innerText())![1]);
    expect(Math.abs(shown - level)).toBeLessThanOrEqual(1);
    await expect.poll(() => page.getByTestId('poi-wind-direction').innerText(), SLOW).toMatch(/North|East|South|West/);
    await expect.poll(() => page.getByTestId('poi-rain-class').innerText(), SLOW).toMatch(/rain|Rainstorm/i);
    await expect.poll(() => page.getByTestId('poi-air-quality').innerText(), SLOW).toMatch(/Excellent|Good|polluted/);
    await shot(page, 'poi-tianqi-en-light.png');

    const soil = deviceOf(devices, 21);
    await openDevice(page, soil);
    await expectChartsWithData(page);
    await expect.poll(() => page.locator('body').innerText(), SLOW).toContain('Depth × time');
    await page.getByRole('tab', { name: 'Parameters' }).click();
    await expect.poll(() => page.locator('[role="tabpanel"].ant-tabs-content-active [data-testid="poi-chart"] canvas').count(), SLOW).toBeGreaterThan(0);
    await page.getByText('Average', { exact: true }).click();
    const thirtyDays = page.waitForResponse((r) => {
      const url = new URL(r.url());
      const span = Number(url.searchParams.get('end')) - Number(url.searchParams.get('begin'));
      return url.pathname.endsWith('/datapoints/v3') && url.searchParams.get('aggregated') === 'average' && span === 30 * 86_400_000;
    });
    await page.getByText('30 days', { exact: true }).click();
    const answer = await (await thirtyDays).json();
    expect(answer.code).toBe(0);
    const moisture = answer.data.series.filter((s: { param: string }) => s.param === 'soilMoisture');
    expect(moisture).toHaveLength(1); // the chosen depths combined into one line
    expect(moisture[0]).toMatchObject({ aggregated: 'average', node: 0 });
    expect(moisture[0].t.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[role="tabpanel"].ant-tabs-content-active [data-testid="poi-chart"] canvas').count(), SLOW).toBeGreaterThan(0);
    await shot(page, 'poi-zhi-shang-en-light.png');
  });

  test('rain gauge: accumulations and the rainstorm warning follow the rain that fell', async () => {
    const { context, page } = await browser({ colorScheme: 'light' });
    await presetLanguage(context, 'en_US');
    await login(page);
    const gauge = deviceOf(await listDevices(page), 9, 1);
    // A burst of 112.5 mm in the last 50 minutes, reported over HTTP with the device's own key.
    const { sn, key } = await page.evaluate(
      async (id) => (await (await fetch(`/apis/poi/encryption?id=${id}`)).json()).data as { sn: string; key: string },
      gauge.id,
    );
    const now = Math.floor(Date.now() / 1000);
    for (const minutesAgo of [50, 40, 30, 20, 10]) {
      const res = await fetch(`${baseURL()}/ingest/v1/telemetry`, {
        method: 'POST',
        headers: { Authorization: `Basic ${Buffer.from(`${sn}:${key}`).toString('base64')}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ts: now - minutesAgo * 60, values: { rainfall: 22.5 } }),
      });
      expect((await res.json()).code).toBe(0);
    }
    await openDevice(page, gauge);
    await expect.poll(() => page.getByTestId('poi-rain-1h').innerText(), SLOW).toContain('112.5');
    await expect.poll(() => page.getByTestId('poi-rain-1h').innerText(), SLOW).toContain('Rainstorm');
    await expect.poll(() => page.getByTestId('poi-rain-warning').innerText(), SLOW).toContain('04');
    await expect.poll(() => page.getByTestId('poi-rain-warning').innerText(), SLOW).toContain('red');
    await expect.poll(() => page.getByTestId('poi-rain-total').innerText(), SLOW).toMatch(/^112\.5 mm$/);
    await shot(page, 'poi-pluviometer-warning-en.png');
  });

  test('a liquid level host shows its slave, and the camera trap its images', async () => {
    const { context, page } = await browser({ colorScheme: 'light' });
    await presetLanguage(context, 'en_US');
    await login(page);
    const devices = await listDevices(page);
    await openDevice(page, deviceOf(devices, 19));
    await expect.poll(() => page.getByTestId('poi-topology-unit').count(), SLOW).toBe(2);
    await expect.poll(() => page.getByTestId('poi-topology').innerText(), SLOW).toContain('Slave');

    await openDevice(page, deviceOf(devices, 20));
    const image = page.getByTestId('poi-images').locator('img').first();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), SLOW).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('poi-controls').innerText(), SLOW).toContain('cannot be controlled from the console yet');
    expect(await page.getByTestId('poi-controls').locator('button:not([disabled]), [role="switch"]:not([disabled])').count()).toBe(0);
  });
});

test('a device is renamed on its page, with the name rules checked first', async () => {
  const { context, page } = await browser({ colorScheme: 'light' });
  await presetLanguage(context, 'en_US');
  await login(page);
  const probe = deviceOf(await listDevices(page), 1, 1);
  await openDevice(page, probe);

  await page.getByRole('button', { name: 'Edit device' }).click();
  const name = page.locator('#poi-edit_name');
  await expect.poll(() => name.inputValue(), SLOW).toBe(probe.name);
  await name.fill('');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'Edit device' });
  await expect.poll(() => modal.innerText(), SLOW).toContain('Name cannot be empty');

  await name.fill('North plot probe');
  const saved = page.waitForResponse((r) => r.url().endsWith(`/apis/poi/${probe.id}/profile`) && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const answer = await (await saved).json();
  expect(answer.code).toBe(0);
  expect(answer.data.name).toBe('North plot probe');
  await expect.poll(() => page.getByTestId('poi-device-name').innerText(), SLOW).toBe('North plot probe');
  await page.reload();
  await expect.poll(() => page.getByTestId('poi-device-name').innerText(), SLOW).toBe('North plot probe');
  await shot(page, 'poi-renamed-en.png');

  // Put the demo name back for the other test files sharing this server.
  const restored = await page.evaluate(
    async ({ id, original }) => {
      const profile = (await (await fetch(`/apis/poi/${id}/profile`)).json()).data;
      const res = await fetch(`/apis/poi/${id}/profile`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...profile, name: original }),
      });
      return (await res.json()).code;
    },
    { id: probe.id, original: probe.name },
  );
  expect(restored).toBe(0);
});

interface MailSummary {
  to: string;
  subject: string;
  attachments: { name: string; sheets?: Record<string, { rows: number; header: string[]; first: string[] }> }[];
}

function mailsTo(dir: string, address: string): MailSummary[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as MailSummary)
    .filter((mail) => mail.to.includes(address));
}

test('data download: the dialog checks its rules, then the workbook arrives by e-mail', async () => {
  const mailDir = inject('mailDir');
  const { context, page } = await browser({ colorScheme: 'light' });
  await presetLanguage(context, 'en_US');
  await login(page);
  const station = deviceOf(await listDevices(page), 7, 1);
  await openDevice(page, station);

  await page.getByRole('button', { name: 'Download data' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download data' });
  const errors = () => dialog.locator('.ant-form-item-explain-error').allInnerTexts();
  const submit = () => dialog.getByTestId('poi-export-submit').click();

  const email = dialog.locator('#poi-download_email');
  await email.fill('');
  for (const box of await dialog.locator('#poi-download_params input[type="checkbox"]').all()) await box.uncheck();
  await submit();
  await expect.poll(errors).toEqual(expect.arrayContaining(['Please select at least one parameter', 'Please enter email']));
  await email.fill('not-an-address');
  await submit();
  await expect.poll(errors).toContain('Please enter a valid email address');

  await dialog.getByLabel('Air temperature', { exact: true }).check();
  await dialog.getByLabel('Wind speed', { exact: true }).check();
  const address = `farm-${Date.now()}@example.com`;
  await email.fill(address);
  await expect.poll(errors).toEqual([]);
  await page.screenshot({ path: path.join(screenshotDir, 'poi-download-dialog-en.png') });

  const started = page.waitForResponse((r) => r.url().endsWith(`/apis/poi/${station.id}/datapoints/export`));
  const sent = page.waitForResponse(async (r) => r.url().includes('/datapoints/export/') && (await r.json()).data?.status === 'sent');
  await submit();
  const request = JSON.parse((await started).request().postData() ?? '{}');
  expect(request).toMatchObject({ params: ['airTemp', 'windSpeed'], email: address, dim: 'raw', format: 'xlsx' });
  expect(request.end - request.begin).toBeLessThanOrEqual(366 * 24 * 3_600_000);
  const task = (await (await sent).json()).data;
  expect(task.rows).toBeGreaterThan(0);
  await expect.poll(() => dialog.getByTestId('poi-export-done').innerText(), SLOW).toContain(`Sent to ${address}`);
  await page.screenshot({ path: path.join(screenshotDir, 'poi-download-sent-en.png') });

  await expect.poll(() => mailsTo(mailDir, address).length, { timeout: 30_000 }).toBe(1);
  const [mail] = mailsTo(mailDir, address);
  expect(mail.subject).toContain(station.name);
  const workbook = mail.attachments.find((a) => a.name.endsWith('.xlsx'));
  expect(workbook?.sheets).toBeDefined();
  const sheets = Object.values(workbook!.sheets!);
  expect(sheets.reduce((sum, sheet) => sum + sheet.rows, 0)).toBe(task.rows);
  const [sheet] = sheets;
  expect(sheet.header).toEqual(expect.arrayContaining(['Air temperature (°C)', 'Wind speed (m/s)']));
  expect(sheet.first).toHaveLength(sheet.header.length);
});
