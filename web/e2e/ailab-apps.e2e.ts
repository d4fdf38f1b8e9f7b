import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { api, baseURL, browser, detailPath, eventually, myDevices, PHONE, settle, shot, signIn } from './browser';

const SLOW = { timeout: 30_000 };
/** The demo farm's application on its two traps (docs/ai-lab.md, "The demo"). */
const DEMO_APP = '示范虫情识别';
const BUILTIN = '/apis/ailab/models/builtin/insect-counter.l5d';
const TRAP = 20;

interface AppAnswer {
  id: number;
  name: string;
  mediumName: string;
  description: string;
  type: string;
  modelId: number;
  modelName: string;
  elements: { identifier: string }[];
  deviceIds: number[];
  devices: { id: number; name: string }[];
  published: boolean;
  jobs: { done: number };
}

interface RecordAnswer {
  id: number;
  appName: string;
  deviceId: number;
  deviceName: string;
  sn: string;
  detectTime: number;
  packages: { identifier: string; average: number; valid: number }[];
}

/** axe's serious and critical violations on the page, as rule :: first target. */
async function axeProblems(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} :: ${v.nodes[0]?.target.join(' ')}`);
}

function formOf(app: AppAnswer) {
  return {
    name: app.name,
    mediumName: app.mediumName,
    description: app.description,
    type: app.type,
    modelId: app.modelId,
    elements: app.elements.map((e) => ({ identifier: e.identifier })),
    deviceIds: app.deviceIds,
  };
}

async function apps(page: Page): Promise<AppAnswer[]> {
  return (await api<AppAnswer[] | null>(page, 'GET', '/apis/ailab/applications')).data ?? [];
}

/**
 * The demo's application. Another flow (the models page's) may have removed it to free the
 * built-in counter: it is then made again as the demo makes it — the counter on both traps, published.
 */
async function demoApp(context: BrowserContext, page: Page): Promise<AppAnswer> {
  const found = (await apps(page)).find((app) => app.name === DEMO_APP);
  if (found) return found;
  let model = ((await api<{ id: number; manifest: { elements: { identifier: string }[] } }[] | null>(page, 'GET', '/apis/ailab/models')).data ?? []).find((m) =>
    m.manifest.elements.some((e) => e.identifier === 'moth'),
  );
  if (!model) {
    const l5d = Buffer.from(await (await context.request.get(baseURL() + BUILTIN)).body());
    const res = await context.request.post(baseURL() + '/apis/ailab/models', {
      multipart: { file: { name: 'insect-counter.l5d', mimeType: 'application/octet-stream', buffer: l5d } },
    });
    model = (await res.json()).data;
  }
  const traps = await myDevices(page, TRAP);
  const made = await api<AppAnswer>(page, 'POST', '/apis/ailab/applications', {
    name: DEMO_APP,
    mediumName: '诱虫灯接虫板',
    description: '',
    type: 'insect',
    modelId: model!.id,
    elements: [{ identifier: 'moth' }],
    deviceIds: traps.map((t) => t.id),
  });
  expect(made.code).toBe(0);
  const published = await api<AppAnswer>(page, 'PUT', `/apis/ailab/applications/${made.data.id}/publish`, { published: true });
  expect(published.code).toBe(0);
  return published.data;
}

async function openApps(page: Page) {
  await page.goto(baseURL() + '/apps/model-service/applications');
  await page.getByTestId('lab-apps').waitFor(SLOW);
}

async function openRecords(page: Page) {
  await page.goto(baseURL() + '/apps/model-service/detections');
  await page.getByTestId('lab-detections').waitFor(SLOW);
}

async function pick(page: Page, select: string, option: string) {
  await page.getByTestId(select).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option }).first().click();
}

describe('AI lab applications and detection history', () => {
  test('the demo application is listed published; edited in the drawer, withdrawn and published again; a refusal shows on its field; a second one deleted', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    await openApps(page);
    const app = await demoApp(context, page);
    const original = formOf(app);
    const traps = await myDevices(page, TRAP);
    await page.reload();
    await page.getByTestId('lab-apps').waitFor(SLOW);

    // Listed with its model, element, both traps and published.
    const row = page.getByTestId('app-table').locator(`tr[data-row-key="${app.id}"]`);
    await row.waitFor(SLOW);
    const text = await row.innerText();
    expect(text).toContain(DEMO_APP);
    expect(text).toContain('Insect trap');
    expect(text).toContain(app.modelName);
    for (const trap of traps) expect(text).toContain(trap.name);
    expect(await row.getByRole('switch').getAttribute('aria-checked')).toBe('true');
    expect(await row.getByTestId(`app-jobs-${app.id}`).innerText()).toMatch(/\d+ done/);
    await shot(page, 'ailab-apps-en.png', { mouseAway: true });
    expect(await axeProblems(page)).toEqual([]);

    try {
      // The description edited in the drawer, which starts from the server's copy.
      const description = `Moths on the catch board, checked ${Date.now()}`;
      await row.getByTestId(`app-edit-${app.id}`).click();
      const form = page.getByTestId('app-form');
      await form.waitFor(SLOW);
      expect(await page.getByTestId('app-name').inputValue()).toBe(DEMO_APP);
      await page.getByTestId('app-description').fill(description);
      await shot(page, 'ailab-app-drawer-en.png', { mouseAway: true });
      const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === `/apis/ailab/applications/${app.id}`);
      await page.getByTestId('app-submit').click();
      expect(((await (await saved).json()) as { code: number }).code).toBe(0);
      await form.waitFor({ state: 'detached' });
      await row.getByText(description).waitFor(SLOW);
      const after = (await apps(page)).find((a) => a.id === app.id)!;
      expect(after.description).toBe(description);
      expect(after.published).toBe(true);
      expect(after.deviceIds.sort()).toEqual([...app.deviceIds].sort());

      // Withdrawn and published again from the switch; the server agrees each time.
      const toggle = row.getByRole('switch');
      await toggle.click();
      await page.getByText(`${DEMO_APP} withdrawn`).waitFor(SLOW);
      await eventually(() => toggle.getAttribute('aria-checked')).toBe('false');
      expect((await apps(page)).find((a) => a.id === app.id)!.published).toBe(false);
      await toggle.click();
      await page.getByText(`${DEMO_APP} published`).waitFor(SLOW);
      await eventually(() => toggle.getAttribute('aria-checked')).toBe('true');
      expect((await apps(page)).find((a) => a.id === app.id)!.published).toBe(true);

      // An empty form is refused before it is sent, every missing field marked.
      await page.getByTestId('app-new').click();
      await page.getByTestId('app-form').waitFor(SLOW);
      await page.getByTestId('app-submit').click();
      await page.getByTestId('app-incomplete').getByText('Please fill in the form completely').waitFor();
      expect(await page.locator('[data-testid="app-form"] .ant-form-item-has-error').count()).toBe(4);

      // A complete one is sent; the server's refusal (a name already taken) shows under the name.
      await page.getByTestId('app-name').fill(DEMO_APP);
      await pick(page, 'app-model', app.modelName);
      await page.getByTestId('app-elements').locator('input[type="checkbox"]').first().waitFor();
      expect(await page.getByTestId('app-elements').locator('input[type="checkbox"]:checked').count()).toBeGreaterThan(0);
      await pick(page, 'app-devices', traps[0].name);
      // The trap is watched by the demo application, as its option says.
      expect(await page.locator('.ant-select-item-option', { hasText: traps[0].name }).first().innerText()).toContain(`watched by ${DEMO_APP}`);
      await page.keyboard.press('Escape');
      await page.getByTestId('app-submit').click();
      const nameItem = page.locator('.ant-form-item', { has: page.getByTestId('app-name') });
      await nameItem.locator('.ant-form-item-explain-error').waitFor(SLOW);
      expect(await nameItem.locator('.ant-form-item-explain-error').innerText()).toMatch(/name/i);
      await shot(page, 'ailab-app-refused-en.png', { mouseAway: true });

      // Under another name it is created, not published; then deleted after a confirmation.
      const second = `E2E watcher ${Date.now() % 100000}`;
      await page.getByTestId('app-name').fill(second);
      const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/apis/ailab/applications');
      await page.getByTestId('app-submit').click();
      const made = (await (await created).json()) as { code: number; data: AppAnswer };
      expect(made.code).toBe(0);
      expect(made.data.published).toBe(false);
      const secondRow = page.getByTestId('app-table').locator(`tr[data-row-key="${made.data.id}"]`);
      await secondRow.waitFor(SLOW);
      expect(await secondRow.getByRole('switch').getAttribute('aria-checked')).toBe('false');
      await secondRow.getByTestId(`app-delete-${made.data.id}`).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
      await secondRow.waitFor({ state: 'detached', ...SLOW });
      expect((await apps(page)).some((a) => a.id === made.data.id)).toBe(false);
    } finally {
      expect((await api(page, 'PUT', `/apis/ailab/applications/${app.id}`, original)).code).toBe(0);
    }
  });

  test('the detection history lists the demo records, narrows to a device, links to it, downloads an XLSX; a record is deleted', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    await openRecords(page);
    await demoApp(context, page);
    const traps = await myDevices(page, TRAP);
    // The demo's backfilled pictures become records as the history loads.
    await eventually(async () => (await api<{ total: number }>(page, 'GET', '/apis/fw/detectReports?page=1&size=1')).data.total).toBeGreaterThan(0);
    await page.reload();
    const table = page.getByTestId('record-table');
    await table.locator('tr[data-row-key]').first().waitFor(SLOW);
    const all = (await api<{ list: RecordAnswer[]; total: number }>(page, 'GET', '/apis/fw/detectReports?page=1&size=20')).data;
    await page.getByText(`${all.total} record`).first().waitFor(SLOW);
    const first = all.list[0];
    const firstRow = table.locator(`tr[data-row-key="${first.id}"]`);
    const firstText = await firstRow.innerText();
    expect(firstText).toContain(first.deviceName);
    expect(firstText).toContain(first.sn);
    expect(firstText).toContain(first.appName);
    expect(await firstRow.getByTestId(`record-values-${first.id}`).innerText()).toContain(String(first.packages[0].valid));
    await shot(page, 'ailab-detections-en.png', { mouseAway: true });
    expect(await axeProblems(page)).toEqual([]);

    // Narrowed to the second trap: only its records, as many as the server counts.
    const trap = traps[1] ?? traps[0];
    const mine = (await api<{ list: RecordAnswer[]; total: number }>(page, 'GET', `/apis/fw/detectReports?deviceId=${trap.id}&page=1&size=20`)).data;
    expect(mine.total).toBeGreaterThan(0);
    await pick(page, 'record-filter-device', trap.name);
    await page.getByText(`${mine.total} record`).first().waitFor(SLOW);
    await eventually(async () => (await table.locator('tr[data-row-key]').allInnerTexts()).every((t) => t.includes(trap.sn))).toBe(true);
    expect(await table.locator('tr[data-row-key]').count()).toBe(Math.min(mine.total, 20));

    // The selection downloads as an XLSX workbook: a zip.
    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByTestId('record-download').click()]);
    expect(saved.suggestedFilename()).toMatch(/^detections-\d{8}\.xlsx$/);
    const bytes = readFileSync((await saved.path())!);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    // A record deleted after a confirmation: gone from the page and from the server.
    const doomed = mine.list[mine.list.length - 1];
    await table.getByTestId(`record-delete-${doomed.id}`).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await table.locator(`tr[data-row-key="${doomed.id}"]`).waitFor({ state: 'detached', ...SLOW });
    const left = (await api<{ list: RecordAnswer[]; total: number }>(page, 'GET', `/apis/fw/detectReports?deviceId=${trap.id}&page=1&size=100`)).data;
    expect(left.list.some((r) => r.id === doomed.id)).toBe(false);

    // Each row links to its device's page.
    const newest = left.list[0];
    await table.getByTestId(`record-device-${newest.id}`).click();
    await page.waitForURL((url) => url.pathname === detailPath(trap), SLOW);
  });

  test('an application published from the page on a demo trap turns the picture the trap takes on command into a record and an "Insects detected" curve', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    await openApps(page);
    const demo = await demoApp(context, page);
    const trap = (await myDevices(page, TRAP))[0];
    const name = `E2E trap watch ${Date.now() % 100000}`;
    const since = Date.now();
    // A device is watched by one published application at most: the demo's steps aside.
    expect((await api(page, 'PUT', `/apis/ailab/applications/${demo.id}/publish`, { published: false })).code).toBe(0);
    try {
      await page.reload();
      await page.getByTestId('lab-apps').waitFor(SLOW);

      // Made in the drawer on one trap, then published from its switch.
      await page.getByTestId('app-new').click();
      await page.getByTestId('app-form').waitFor(SLOW);
      await page.getByTestId('app-name').fill(name);
      await page.getByTestId('app-medium').fill('Catch board');
      await pick(page, 'app-model', demo.modelName);
      await page.getByTestId('app-elements').locator('input[type="checkbox"]:checked').first().waitFor(SLOW);
      await pick(page, 'app-devices', trap.name);
      await page.keyboard.press('Escape');
      const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/apis/ailab/applications');
      await page.getByTestId('app-submit').click();
      const made = (await (await created).json()) as { code: number; data: AppAnswer };
      expect(made.code).toBe(0);
      expect(made.data.deviceIds).toEqual([trap.id]);
      const row = page.getByTestId('app-table').locator(`tr[data-row-key="${made.data.id}"]`);
      await row.waitFor(SLOW);
      try {
        await row.getByRole('switch').click();
        await page.getByText(`${name} published`).waitFor(SLOW);
        expect((await apps(page)).find((a) => a.id === made.data.id)!.published).toBe(true);

        // The trap takes a picture on command; the new application looks at it.
        await page.goto(baseURL() + detailPath(trap));
        await page.getByTestId('poi-command-capture').getByRole('button', { name: 'Capture now' }).click();
        await expect.poll(() => page.getByTestId('poi-commands').locator('tbody tr').first().innerText(), SLOW).toContain('Effective');
        let record: RecordAnswer | undefined;
        await expect
          .poll(async () => {
            const list = (await api<{ list: RecordAnswer[] }>(page, 'GET', `/apis/fw/detectReports?deviceId=${trap.id}&page=1&size=50`)).data.list;
            record = list.find((r) => r.appName === name && r.detectTime >= since - 60_000);
            return Boolean(record);
          }, { timeout: 60_000 })
          .toBe(true);
        expect(record!.packages.map((p) => p.identifier)).toEqual(['moth']);

        // The detection history lists it under the application's name.
        await openRecords(page);
        const recordRow = page.getByTestId('record-table').locator(`tr[data-row-key="${record!.id}"]`);
        await recordRow.waitFor(SLOW);
        expect(await recordRow.innerText()).toContain(name);
        expect(await recordRow.getByTestId(`record-values-${record!.id}`).innerText()).toContain(String(record!.packages[0].valid));

        // Its count is a reading of the trap: the history has it at the record's time, and the
        // trap's page draws it with the other curves.
        const history = await api<{ series: { param: string; points: [number, number][] }[] }>(
          page,
          'GET',
          `/apis/poi/${trap.id}/datapoints/v2?params=detectCount&dim=raw&begin=${record!.detectTime - 60_000}&end=${record!.detectTime + 60_000}`,
        );
        const points = history.data.series.flatMap((series) => series.points);
        expect(points).toContainEqual([record!.detectTime + 1, record!.packages[0].valid]);
        await page.goto(baseURL() + detailPath(trap));
        const chart = page.getByRole('img', { name: 'Insects detected history chart' });
        await chart.waitFor(SLOW);
        await expect.poll(() => chart.locator('canvas').count(), SLOW).toBeGreaterThan(0);
        await chart.scrollIntoViewIfNeeded();
        await shot(page, 'ailab-trap-detected-curve-en.png', { mouseAway: true });
      } finally {
        expect((await api(page, 'DELETE', `/apis/ailab/applications/${made.data.id}`)).code).toBe(0);
      }
    } finally {
      expect((await api(page, 'PUT', `/apis/ailab/applications/${demo.id}/publish`, { published: true })).code).toBe(0);
    }
  });

  test('both pages in Chinese and the dark theme', async () => {
    const { context, page } = await browser({ lang: 'zh_CN', colorScheme: 'dark' });
    await signIn(context);
    await openApps(page);
    const app = await demoApp(context, page);
    await page.reload();
    const row = page.getByTestId('app-table').locator(`tr[data-row-key="${app.id}"]`);
    await row.waitFor(SLOW);
    expect(await row.innerText()).toContain('虫情测报');
    await shot(page, 'ailab-apps-zh-dark.png', { mouseAway: true });
    await row.getByTestId(`app-edit-${app.id}`).click();
    await page.getByTestId('app-form').waitFor(SLOW);
    await shot(page, 'ailab-app-drawer-zh-dark.png', { mouseAway: true });

    await openRecords(page);
    await page.getByTestId('record-table').locator('tr[data-row-key]').first().waitFor(SLOW);
    await page.getByText(/共 \d+ 条记录/).waitFor(SLOW);
    await shot(page, 'ailab-detections-zh-dark.png', { mouseAway: true });

    // On a phone: the same pages, the tables scrolling sideways inside them.
    const phone = await browser({ lang: 'zh_CN', ...PHONE, deviceScaleFactor: 2 });
    await signIn(phone.context);
    await openApps(phone.page);
    await phone.page.getByTestId('app-table').locator(`tr[data-row-key="${app.id}"]`).waitFor(SLOW);
    await shot(phone.page, 'ailab-apps-phone.png', { mouseAway: true });
    await openRecords(phone.page);
    await phone.page.getByTestId('record-table').locator('tr[data-row-key]').first().waitFor(SLOW);
    await shot(phone.page, 'ailab-detections-phone.png', { mouseAway: true });
  });

  test('a list that cannot be read, a detail that cannot be read and a download that fails each say so', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await signIn(context);
    await openApps(page);
    const app = await demoApp(context, page);

    // The connection drops for the list: SPEC's message, with the reason.
    await page.route('**/apis/ailab/applications', (route) => route.abort('connectionreset'));
    await page.reload();
    await page.getByRole('alert').getByText('Failed to get app list, please try again later').waitFor(SLOW);
    await page.unroute('**/apis/ailab/applications');

    // The list is back; the drawer's read of the application fails.
    await page.reload();
    const row = page.getByTestId('app-table').locator(`tr[data-row-key="${app.id}"]`);
    await row.waitFor(SLOW);
    await page.route(`**/apis/ailab/applications/${app.id}`, (route) => route.abort('connectionreset'));
    await row.getByTestId(`app-edit-${app.id}`).click();
    await page.getByTestId('app-detail-error').getByText('Failed to get app detail, please try again later').waitFor(SLOW);
    await page.unroute(`**/apis/ailab/applications/${app.id}`);

    // The history's download fails.
    await openRecords(page);
    await page.route('**/apis/fw/detectReports/download**', (route) => route.abort('connectionreset'));
    await page.getByTestId('record-download').click();
    await page.getByText('Download failed, please try again later').waitFor(SLOW);
  });
});
