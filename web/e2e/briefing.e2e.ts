import AxeBuilder from '@axe-core/playwright';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { apiCall, beforeClosing, browser, login, PHONE, sessionCookie, settle, shot } from './browser';
import { startOwnServer, type OwnServer } from './own-server';

// The page's flows run on a server of their own with ten days of history, so a week's report has
// every device's figures; the scheduled mail goes through the shared server and its SMTP sink.
let own: OwnServer | null = null;
beforeAll(async () => {
  own = await startOwnServer({ name: 'briefing', args: ['--demo-days', '10'] });
});
afterAll(async () => {
  await own?.stop();
});

/** An API call on the own server with the browser's session there. */
async function ownCall(context: BrowserContext, method: string, apiPath: string, body?: unknown) {
  const res = await fetch(own!.base + apiPath, {
    method,
    headers: { Cookie: `fw_session=${await sessionCookie(context)}`, 'Content-Type': 'application/json', lang: 'en_US' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: unknown };
}

/** Names of the presets this file made, deleted after it. */
const made = new Set<string>();
beforeClosing(async (context: BrowserContext) => {
  try {
    const list = (await apiCall(context, 'GET', '/apis/soil_moisture/briefing?page=1&size=100')).data as { list: { configId: number; name: string }[] };
    for (const p of list.list) if (made.has(p.name)) await apiCall(context, 'DELETE', `/apis/soil_moisture/briefing/${p.configId}`);
  } catch {
    // The browser never logged in: nothing was made.
  }
});

async function open(lang: string, colorScheme: 'light' | 'dark' = 'light', base?: string) {
  const { context, page } = await browser({ colorScheme, lang });
  await login(page, `/login?redirect=${encodeURIComponent('/apps/service/moisture-report')}`, { base });
  await page.getByTestId('briefing-add').waitFor();
  return { context, page };
}

/** Picks options of an antd Select by their text. */
async function choose(page: Page, testId: string, options: (string | RegExp)[]) {
  await page.getByTestId(testId).click();
  for (const option of options) {
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option }).first().click();
  }
  await page.keyboard.press('Escape');
}

/** axe's serious and critical violations on the page as it shows now. */
async function axe(page: Page): Promise<string[]> {
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

interface Summary {
  to: string;
  subject: string;
  attachments: { name: string; contentType: string; size: number }[] | null;
}

function mails(dir: string): Summary[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Summary);
}

describe('soil-moisture briefings', () => {
  test('a preset is made in the modal, previewed, and downloaded as PDF and XLSX with progress', async () => {
    const { page } = await open('en_US', 'light', own!.base);
    const name = `Demo county weekly ${Date.now() % 100000}`;

    await page.getByTestId('briefing-add').click();
    await page.getByTestId('briefing-name').waitFor();
    // The template fills the form; the device picker marks the devices without a 40–60 cm node.
    await page.getByTestId('briefing-name').fill(name);
    await page.getByTestId('briefing-unit').fill('Demo County Agriculture Bureau');
    await page.getByTestId('briefing-region-name-0').fill('North');
    await choose(page, 'briefing-region-devices-0', ['ZS006-01', 'SMP003-01']);
    await expect.poll(() => page.getByTestId('briefing-region-0').innerText()).toContain('no 40–60 cm layer');
    await page.getByTestId('briefing-add-region').click();
    await page.getByTestId('briefing-region-name-1').fill('South');
    await choose(page, 'briefing-region-devices-1', ['ZS006-02', 'DCR004-02']);
    await choose(page, 'briefing-weather', ['TQS010-01']);
    await shot(page, 'briefing-modal-en_US-light.png');
    expect(await axe(page)).toEqual([]);
    const saved = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/apis/soil_moisture/briefing');
    await page.getByTestId('briefing-save').click();
    const body = (await (await saved).json()) as { code: number; data: { configId: number; regionList: unknown[]; zsDeviceIds: unknown[] } };
    expect(body.code).toBe(0);
    expect(body.data.regionList).toHaveLength(2);
    expect(body.data.zsDeviceIds).toHaveLength(4);
    const id = body.data.configId;
    await page.getByText(name).waitFor();
    // The demo history is stored in the background after the start: wait until the week is there.
    await expect
      .poll(async () => {
        const report = (await ownCall(page.context(), 'GET', `/apis/soil_moisture/briefing/${id}/report`)).data as { regions: { used: number }[] };
        return report.regions.every((r) => r.used > 0);
      }, { timeout: 60_000, interval: 1000 })
      .toBe(true);

    // The preview in the page.
    await page.getByTestId(`briefing-preview-${id}`).click();
    const preview = page.getByTestId('briefing-preview');
    await preview.locator('.ant-table-row').first().waitFor();
    expect(await preview.innerText()).toContain('North');
    expect(await preview.locator('.ant-table-row').count()).toBe(6);
    // A week of data: every region's 0–20 cm layer has figures and a grade.
    const first = await preview.locator('.ant-table-row').first().innerText();
    expect(first).toMatch(/\d+\.\d/);
    expect(first).not.toContain('No data');
    await shot(page, 'briefing-preview-en_US-light.png');
    expect(await axe(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });

    // Both files, through the queue with progress.
    for (const format of ['pdf', 'xlsx'] as const) {
      const download = page.waitForEvent('download');
      await page.getByTestId(`briefing-${format}-${id}`).click();
      await page.getByTestId('briefing-job').waitFor();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(new RegExp(`^Demo county weekly \\d+_\\d{8}-\\d{8}\\.${format}$`));
      const saved = await file.path();
      const head = readFileSync(saved).subarray(0, 5).toString('latin1');
      expect(head.startsWith(format === 'pdf' ? '%PDF-' : 'PK')).toBe(true);
      await expect.poll(() => page.getByTestId('briefing-job').innerText()).toContain('Ready; downloading');
    }
    await shot(page, 'briefing-list-en_US-light.png');
  });

  test('the page in Chinese and the dark theme', async () => {
    const { context, page } = await open('zh_CN', 'dark', own!.base);
    const name = `示范周报 ${Date.now() % 100000}`;
    const devices = (await ownCall(context, 'GET', '/apis/soil_moisture/briefing/device')).data as { id: number; kind: string }[];
    const soil = devices.filter((d) => d.kind === 'soil').map((d) => d.id);
    const answer = await ownCall(context, 'POST', '/apis/soil_moisture/briefing', {
      name,
      unitName: '示范县农业农村局',
      regionList: [{ name: '城关镇', deviceIds: soil.slice(0, 3) }, { name: '官渡镇', deviceIds: soil.slice(3, 6) }],
      zsDeviceIds: soil.slice(0, 6).map((deviceId) => ({ deviceId })),
      tqDeviceIds: devices.filter((d) => d.kind === 'weather').slice(0, 1).map((d) => d.id),
      stage: 'critical',
    });
    expect(answer.code).toBe(0);
    await page.reload();
    await page.getByText(name).waitFor();
    await shot(page, 'briefing-list-zh_CN-dark.png');
    expect(await axe(page)).toEqual([]);
    await page.getByTestId('briefing-add').click();
    await page.getByTestId('briefing-name').waitFor();
    await shot(page, 'briefing-modal-zh_CN-dark.png');
    await page.keyboard.press('Escape');
    const id = (answer.data as { configId: number }).configId;
    await page.getByTestId(`briefing-preview-${id}`).click();
    await page.getByTestId('briefing-preview').locator('.ant-table-row').first().waitFor();
    expect(await page.getByTestId('briefing-preview').innerText()).toContain('城关镇');
    await shot(page, 'briefing-preview-zh_CN-dark.png');
    expect(await axe(page)).toEqual([]);
  });

  test('on a phone: the list of briefings, and one opened', async () => {
    for (const [lang, colorScheme] of [
      ['zh_CN', 'light'],
      ['en_US', 'dark'],
    ] as const) {
      const { context, page } = await browser({ ...PHONE, colorScheme, lang });
      await login(page, '/apps/mobile/profile', { base: own!.base });
      const devices = (await ownCall(context, 'GET', '/apis/soil_moisture/briefing/device')).data as { id: number; kind: string }[];
      const soil = devices.filter((d) => d.kind === 'soil').map((d) => d.id);
      const made = await ownCall(context, 'POST', '/apis/soil_moisture/briefing', {
        name: lang === 'zh_CN' ? '手机查看的周报' : 'Weekly report on the phone',
        unitName: lang === 'zh_CN' ? '示范县农业农村局' : 'Demo County Agriculture Bureau',
        lang,
        regionList: [{ name: lang === 'zh_CN' ? '城关镇' : 'North', deviceIds: soil.slice(0, 3) }],
        zsDeviceIds: soil.slice(0, 3).map((deviceId) => ({ deviceId })),
      });
      expect(made.code).toBe(0);
      const id = (made.data as { configId: number }).configId;
      await expect
        .poll(async () => ((await ownCall(context, 'GET', `/apis/soil_moisture/briefing/${id}/report`)).data as { regions: { used: number }[] }).regions[0].used, {
          timeout: 60_000,
          interval: 1000,
        })
        .toBeGreaterThan(0);
      await page.getByTestId('m-briefings').click();
      await page.waitForURL((u) => u.pathname === '/apps/mobile/moisture-report');
      const first = page.getByTestId(`m-briefing-${id}`);
      await first.waitFor();
      await shot(page, `briefing-mobile-list-${lang}-${colorScheme}.png`);
      await first.click();
      const report = page.getByTestId('m-briefing-report');
      await report.waitFor();
      expect(await report.innerText()).toMatch(/0–20 cm\s+\d+\.\d %/);
      await shot(page, `briefing-mobile-report-${lang}-${colorScheme}.png`, { fullPage: true });
      expect(await axe(page)).toEqual([]);
      const download = page.waitForEvent('download');
      await page.getByTestId('m-briefing-pdf').click();
      expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
    }
  });

  test('a scheduled run e-mails the PDF to the recipients', async () => {
    const { context } = await open('en_US');
    const name = `Scheduled briefing ${Date.now() % 100000}`;
    made.add(name);
    const devices = (await apiCall(context, 'GET', '/apis/soil_moisture/briefing/device')).data as { id: number; kind: string }[];
    const soil = devices.filter((d) => d.kind === 'soil').map((d) => d.id).slice(0, 2);
    // The next minute on the farm's clock (Asia/Shanghai, the server's default).
    const at = new Date(Date.now() + 60_000);
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Shanghai', weekday: 'short', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' })
        .formatToParts(at)
        .map((p) => [p.type, p.value]),
    );
    const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday);
    const answer = await apiCall(context, 'POST', '/apis/soil_moisture/briefing', {
      name,
      unitName: 'Demo County Agriculture Bureau',
      lang: 'en_US',
      regionList: [{ name: 'Farm', deviceIds: soil }],
      zsDeviceIds: soil.map((deviceId) => ({ deviceId })),
      schedule: { enabled: true, weekday, hour: Number(parts.hour), minute: Number(parts.minute) },
      recipients: ['bureau@example.com', 'township@example.com'],
    });
    expect(answer.code).toBe(0);
    const dir = inject('mailDir');
    await expect.poll(() => mails(dir).filter((m) => m.subject.startsWith(name)).length, { timeout: 110_000, interval: 1000 }).toBe(1);
    const mail = mails(dir).find((m) => m.subject.startsWith(name))!;
    expect(mail.to).toContain('bureau@example.com');
    expect(mail.to).toContain('township@example.com');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments![0].contentType).toBe('application/pdf');
    expect(mail.attachments![0].name).toMatch(/\.pdf$/);
    expect(mail.attachments![0].size).toBeGreaterThan(5000);
  });
});
