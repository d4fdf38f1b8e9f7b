import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseURL, browser, detailPath, deviceOf, listDevices, screenshotDir, settle, signIn, type ListedDevice } from './browser';

/** The analysis calls that had no page, each on the device page a farm manager opens. */
const SLOW = { timeout: 20_000 };

async function open(page: Page, device: ListedDevice) {
  await page.goto(baseURL() + detailPath(device));
  await expect.poll(() => page.getByTestId('poi-device-name').innerText(), SLOW).toBe(device.name);
}

/** Opens a tab by its key; one that does not fit the row is in the tab bar's "more" menu. */
async function tab(card: Locator, key: string) {
  const t = card.locator(`.ant-tabs-nav-list .ant-tabs-tab[data-node-key="${key}"]`);
  await card.scrollIntoViewIfNeeded();
  if (await t.isVisible()) {
    await t.click();
    return;
  }
  const label = await t.innerText();
  await card.locator('.ant-tabs-nav-more').first().hover();
  await card.page().locator('.ant-tabs-dropdown:not(.ant-tabs-dropdown-hidden) .ant-tabs-dropdown-menu-item').filter({ hasText: label }).click();
}

async function shotOf(page: Page, element: Locator, name: string) {
  await element.scrollIntoViewIfNeeded();
  await settle(page);
  await element.screenshot({ path: path.join(screenshotDir, name) });
}

/** Real values: digits with their unit, nothing unformatted or missing-key. */
async function realValues(element: Locator, unit: string) {
  await expect.poll(() => element.innerText(), SLOW).toMatch(new RegExp(`\\d+(\\.\\d+)? ${unit}`));
  expect(await element.innerText()).not.toMatch(/NaN|undefined|pages\.|\d\.\d{4,}/);
}

const RUNS = [
  { lang: 'zh_CN', scheme: 'light' },
  { lang: 'zh_TW', scheme: 'light' },
  { lang: 'en_US', scheme: 'dark' },
] as const;

describe('analysis pages', () => {
  for (const { lang, scheme } of RUNS) {
    test(`soil probe: moisture by day, week weather, seven-day meteorology, crop (${lang}, ${scheme})`, async () => {
      const { page } = await browser({ colorScheme: scheme, lang });
      await signIn(page.context());
      await open(page, deviceOf(await listDevices(page.context()), 1));
      const card = page.getByTestId('poi-soil-weather');
      await tab(card, 'sqy');
      await realValues(card.getByTestId('poi-sqy-query'), '%');
      await shotOf(page, card, `analysis-sqy-${lang}-${scheme}.png`);
      await tab(card, 'week');
      const week = card.getByTestId('poi-week-weather');
      await realValues(week, '°C');
      // No forecast service in the flows: the tab says so and still shows the measured days.
      await expect.poll(() => week.getByTestId('poi-week-weather-no-forecast').count(), SLOW).toBe(1);
      await shotOf(page, card, `analysis-week-weather-${lang}-${scheme}.png`);
      await tab(card, 'mete');
      await realValues(card.getByTestId('poi-seven-mete'), 'mm');
      await shotOf(page, card, `analysis-seven-mete-${lang}-${scheme}.png`);
      await tab(card, 'crop');
      await expect.poll(() => card.getByTestId('poi-crop-save').count(), SLOW).toBe(1);
      await shotOf(page, card, `analysis-crop-${lang}-${scheme}.png`);
    });

    test(`rain gauge: latest event against I-D, installation (${lang}, ${scheme})`, async () => {
      const { page } = await browser({ colorScheme: scheme, lang });
      await signIn(page.context());
      const gauge = deviceOf(await listDevices(page.context()), 6);
      await open(page, gauge);
      const card = page.getByTestId('poi-rain-more');
      const latest = page.getByTestId('poi-id-latest').or(page.getByTestId('poi-id-latest-empty'));
      await expect.poll(() => latest.count(), SLOW).toBe(1);
      if ((await page.getByTestId('poi-id-latest').count()) === 1) await realValues(page.getByTestId('poi-id-latest'), 'mm/h');
      await shotOf(page, card, `analysis-id-latest-${lang}-${scheme}.png`);
      await tab(card, 'installing');
      const inst = card.getByTestId('poi-installing');
      await expect.poll(() => inst.innerText(), SLOW).toContain(gauge.sn);
      await realValues(inst, 'mm');
      await shotOf(page, card, `analysis-installing-${lang}-${scheme}.png`);
    });

    test(`weather station: daily weather history (${lang}, ${scheme})`, async () => {
      const { page } = await browser({ colorScheme: scheme, lang });
      await signIn(page.context());
      await open(page, deviceOf(await listDevices(page.context()), 7));
      const card = page.getByTestId('poi-weather-history-card');
      await realValues(card.getByTestId('poi-weather-history'), 'hPa');
      await shotOf(page, card, `analysis-weather-history-${lang}-${scheme}.png`);
    });
  }

  test('the crop is changed from its tab and the plot keeps it (en_US)', async () => {
    const { page } = await browser({ colorScheme: 'light', lang: 'en_US' });
    await signIn(page.context());
    const probe = deviceOf(await listDevices(page.context()), 1);
    // The demo plot's crop as it was, put back afterwards for the other flows.
    const before = (await (await page.context().request.get(`${baseURL()}/apis/poi/shang/config?id=${probe.id}`)).json()).data;
    await open(page, probe);
    const card = page.getByTestId('poi-soil-weather');
    await tab(card, 'crop');
    const form = card.getByTestId('poi-crop-update');
    await form.locator('input#cropVariety').fill('Zhengdan 958');
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/apis/poi/crop/update');
    await form.getByTestId('poi-crop-select').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Maize' }).click();
    await card.getByTestId('poi-crop-save').click();
    const answer = await (await saved).json();
    expect(answer.code).toBe(0);
    expect(answer.data.cropType).toBe('maize');
    expect(answer.data.cropVariety).toBe('Zhengdan 958');
    await expect.poll(() => page.locator('.ant-message').innerText(), SLOW).toContain('Crop saved');
    const after = (await (await page.context().request.get(`${baseURL()}/apis/poi/shang/config?id=${probe.id}`)).json()).data;
    expect([after.cropType, after.cropVariety, after.plantingTime, after.areaMu]).toEqual(['maize', 'Zhengdan 958', before.plantingTime, before.areaMu]);
    if (before.cropType) {
      const restore = await page.context().request.put(`${baseURL()}/apis/poi/crop/update?id=${probe.id}`, {
        data: { cropName: before.cropType, cropVariety: before.cropVariety, sowTime: before.plantingTime, area: before.areaMu },
      });
      expect((await restore.json()).code).toBe(0);
    }
  });
});
