import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseURL, browser, deviceOf, listDevices, login, PHONE, shot, type ListedDevice } from './browser';

/** One demo device type for each realtime child of the phone (docs/device-types.md). */
const TYPE_OF = {
  liquidometer: 19, // host with a slave
  ibiosense: 20, // insect trap with a camera
  'shan-jing': 8,
  moisture: 1,
  'zhi-shang': 2,
  'meteorological-moisture': 21,
  tianqi: 7, // weather with air quality
  pluviometer: 6,
  'yun-yao': 10,
  dcr004: 3,
} as const;
type RealtimeType = keyof typeof TYPE_OF;

/** Charts load their code on first use and the machine is shared: give the page time. */
const SLOW = { timeout: 30_000 };
const MISSING = '--';

/** A phone (390×844, iPhone Safari) in the given language and theme; console errors and page errors are collected. */
async function phone({ locale = 'en-US', dark = false } = {}) {
  const { context, page } = await browser({ ...PHONE, deviceScaleFactor: 2, locale, colorScheme: dark ? 'dark' : 'light' });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return { context, page, errors };
}

/** Full-page screenshots, scrolled to the top. */
const FULL = { fullPage: true, top: true };

const base = (d: ListedDevice) => `/apps/mobile/poi/${d.hashId}/${d.id}`;

/** The value texts the page shows (figures, tiles, depth rows). */
const values = (page: Page) => page.getByTestId('mpoi-value').allInnerTexts();

/** Opens a realtime child and waits until the device's readings are on the page. */
async function openRealtime(page: Page, device: ListedDevice, type: RealtimeType) {
  await page.goto(baseURL() + `${base(device)}/realtime/${type}`);
  await page.locator(`[data-testid="mpoi-realtime"][data-type="${type}"]`).waitFor(SLOW);
  await expect.poll(async () => (await values(page)).filter((v) => v !== MISSING).length, SLOW).toBeGreaterThan(0);
  await page.waitForLoadState('networkidle');
}

describe('phone device pages', () => {
  test('every realtime child shows its type’s figures on a demo device of that type, light and dark', async () => {
    for (const [locale, dark] of [['en-US', false], ['zh-CN', true]] as const) {
      const { page, errors } = await phone({ locale, dark });
      await login(page, '/apps/mobile/profile');
      const devices = await listDevices(page);
      for (const type of Object.keys(TYPE_OF) as RealtimeType[]) {
        const device = deviceOf(devices, TYPE_OF[type]);
        await openRealtime(page, device, type);
        expect(await page.getByTestId('mpoi-device-name').innerText()).toBe(device.name);
        const shown = await values(page);
        const real = shown.filter((v) => v !== MISSING);
        // Real readings, not dashes everywhere: at least half of the figures have a value.
        expect(real.length, `${type}: ${shown.join(' | ')}`).toBeGreaterThanOrEqual(Math.ceil(shown.length / 2));
        expect(await page.locator('.fw-mobile-error').count(), type).toBe(0);
        await shot(page, `mobile-poi-${type}${dark ? '-dark' : ''}.png`, FULL);
      }
      expect(errors).toEqual([]);
    }
  });

  test('each type’s own figures: depths, weather tiles, rain periods, level and tilt limits, valve, gallery', async () => {
    const { page, errors } = await phone();
    await login(page, '/apps/mobile/profile');
    const devices = await listDevices(page);

    // The realtime index and another type's address both lead to the device's own child.
    const soil = deviceOf(devices, 3);
    await page.goto(baseURL() + `${base(soil)}/realtime`);
    await page.waitForURL((u) => u.pathname.endsWith('/realtime/dcr004'));
    await page.goto(baseURL() + `${base(soil)}/realtime/tianqi`);
    await page.waitForURL((u) => u.pathname.endsWith('/realtime/dcr004'));
    await page.locator('[data-testid="mpoi-soil"] li').first().waitFor(SLOW);
    expect(await page.locator('[data-testid="mpoi-soil"] li').count()).toBe(10);

    const station = deviceOf(devices, 21);
    await page.goto(baseURL() + `${base(station)}/realtime`);
    await page.waitForURL((u) => u.pathname.endsWith('/realtime/meteorological-moisture'));
    await page.getByTestId('mpoi-weather').waitFor(SLOW);
    expect(await page.locator('[data-testid="mpoi-soil"] li').count()).toBe(6);

    await openRealtime(page, deviceOf(devices, 7), 'tianqi');
    await expect.poll(() => page.getByTestId('mpoi-wind').innerText(), SLOW).toMatch(/Level \d+/);
    expect(await page.getByTestId('mpoi-wind-direction').innerText()).toMatch(/°/);
    expect(await page.getByTestId('mpoi-rain-class').innerText()).toMatch(/mm/);

    await openRealtime(page, deviceOf(devices, 6), 'pluviometer');
    for (const id of ['mpoi-rain-1h', 'mpoi-rain-12h', 'mpoi-rain-24h', 'mpoi-rain-today']) {
      await expect.poll(() => page.getByTestId(id).locator('[data-testid="mpoi-value"]').innerText(), SLOW).toMatch(/^\d/);
    }

    await openRealtime(page, deviceOf(devices, 19), 'liquidometer');
    expect(await page.getByTestId('mpoi-water-level').innerText()).toMatch(/\d\s*m/);
    await page.getByTestId('mpoi-level-limits').waitFor();
    await page.getByTestId('mpoi-units').waitFor(SLOW);

    await openRealtime(page, deviceOf(devices, 8), 'shan-jing');
    expect(await page.getByTestId('mpoi-tilt-angle').innerText()).toMatch(/\d°/);
    await page.getByTestId('mpoi-tilt-limits').waitFor();

    await openRealtime(page, deviceOf(devices, 10), 'yun-yao');
    expect(await page.getByTestId('mpoi-valve').locator('[data-testid="mpoi-value"]').innerText()).toMatch(/Open|Closed/);

    // The camera: the latest picture large, older ones small; a tap opens them full screen.
    await openRealtime(page, deviceOf(devices, 20), 'ibiosense');
    await page.getByTestId('mpoi-image-latest').waitFor(SLOW);
    expect(await page.getByTestId('mpoi-image-thumb').count()).toBeGreaterThan(0);
    await page.getByTestId('mpoi-image-thumb').first().click();
    await page.locator('.adm-image-viewer-content').first().waitFor();
    await shot(page, 'mobile-poi-ibiosense-viewer.png', FULL);
    expect(errors).toEqual([]);
  });

  test('history: chart drawn, range and raw/daily switched, depths chosen, pinch zoom moves the window', async () => {
    for (const [locale, dark] of [['en-US', false], ['zh-CN', true]] as const) {
      const { page, errors } = await phone({ locale, dark });
      await login(page, '/apps/mobile/profile');
      const device = deviceOf(await listDevices(page), 2);
      await page.goto(baseURL() + `${base(device)}/history`);
      const canvas = page.locator('[data-testid="poi-chart"] canvas');
      await canvas.first().waitFor(SLOW);
      const window = page.getByTestId('mpoi-zoom-window');
      const span = async () => {
        const [begin, end] = await Promise.all([window.getAttribute('data-begin'), window.getAttribute('data-end')]);
        return Number(end) - Number(begin);
      };
      expect(await span()).toBe(24 * 3_600_000);

      // Depths: three of six to start with; one more drawn after a tap.
      expect(await page.locator('[data-testid="mpoi-nodes"] .adm-selector-item-multiple-active').count()).toBe(3);
      await page.locator('[data-testid="mpoi-nodes"] .adm-selector-item').nth(1).click();
      await expect.poll(() => page.locator('[data-testid="mpoi-nodes"] .adm-selector-item-multiple-active').count()).toBe(4);
      await canvas.first().waitFor(SLOW);

      // 7 days, then the daily figures.
      const range = page.getByTestId('mpoi-range-text');
      const before = await range.innerText();
      await page.locator('[data-testid="mpoi-range"] .adm-selector-item').nth(1).click();
      await expect.poll(span).toBe(7 * 24 * 3_600_000);
      expect(await range.innerText()).not.toBe(before);
      await canvas.first().waitFor(SLOW);
      const daily = page.waitForResponse((r) => r.url().includes('/datapoints/v3') && r.url().includes('dim=daily'));
      await page.locator('[data-testid="mpoi-dim"] .adm-selector-item').nth(1).click();
      expect((await (await daily).json()).code).toBe(0);
      await canvas.first().waitFor(SLOW);
      expect(await page.getByTestId('mpoi-chart-empty').count()).toBe(0);
      await page.locator('[data-testid="mpoi-dim"] .adm-selector-item').nth(0).click();
      await canvas.first().waitFor(SLOW);
      await page.waitForLoadState('networkidle');
      await shot(page, `mobile-poi-history${dark ? '-dark' : ''}.png`, FULL);

      // A two-finger pinch on the chart zooms in: the visible window narrows. Pinched near the right
      // edge, where the newest readings are.
      const box = await canvas.first().boundingBox();
      if (!box) throw new Error('chart has no box');
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Input.synthesizePinchGesture', {
        x: box.x + box.width * 0.85,
        y: box.y + box.height / 2,
        scaleFactor: 3,
        gestureSourceType: 'touch',
      });
      await expect.poll(span, SLOW).toBeLessThan(7 * 24 * 3_600_000);
      expect(await window.innerText()).toMatch(/Showing|显示/);
      await shot(page, `mobile-poi-history-zoomed${dark ? '-dark' : ''}.png`, FULL);
      await page.getByTestId('mpoi-zoom-reset').click();
      await expect.poll(span).toBe(7 * 24 * 3_600_000);

      // A custom range from the calendar.
      await page.locator('[data-testid="mpoi-range"] .adm-selector-item').nth(3).click();
      await page.locator('.adm-calendar-picker-view').waitFor();
      const days = page.locator('.adm-calendar-picker-view-cell:not(.adm-calendar-picker-view-cell-disabled)');
      const count = await days.count();
      await days.nth(count - 4).click();
      await days.nth(count - 2).click();
      await shot(page, `mobile-poi-history-calendar${dark ? '-dark' : ''}.png`, FULL);
      await page.locator('.adm-calendar-picker-footer .adm-button').click();
      await expect.poll(span).toBe(3 * 24 * 3_600_000);
      expect(errors).toEqual([]);
    }
  });

  test('about shows the dates, battery and place; the profile renames within the rules, with the server’s reasons at the field', async () => {
    for (const [locale, dark] of [['en-US', false], ['zh-CN', true], ['zh-TW', false]] as const) {
      const { page, errors } = await phone({ locale, dark });
      await login(page, '/apps/mobile/profile');
      const device = deviceOf(await listDevices(page), 1, 1);
      await page.goto(baseURL() + `${base(device)}/about`);
      await page.getByTestId('mpoi-about').waitFor(SLOW);
      expect(await page.getByTestId('mpoi-about-sn').innerText()).toBe(device.sn);
      await expect.poll(() => page.getByTestId('mpoi-about-service').innerText(), SLOW).toMatch(/\d{4}-\d{2}-\d{2}/);
      expect(await page.getByTestId('mpoi-about-warranty').innerText()).toMatch(/\d{4}-\d{2}-\d{2}/);
      expect(await page.getByTestId('mpoi-about-install').innerText()).toMatch(/\d{4}-\d{2}-\d{2}/);
      expect(await page.getByTestId('mpoi-about-battery').innerText()).toMatch(/\d V/);
      await shot(page, `mobile-poi-about-${locale}${dark ? '-dark' : ''}.png`, FULL);
      await page.getByTestId('mpoi-about-profile').click();
      await page.waitForURL((u) => u.pathname.endsWith('/about/profile'));
      await page.getByTestId('mpoi-profile').waitFor(SLOW);
      await shot(page, `mobile-poi-profile-${locale}${dark ? '-dark' : ''}.png`, FULL);
      expect(errors).toEqual([]);
      if (locale !== 'en-US') {
        // The back arrow of the profile leads to About, not out of the device.
        await page.locator('.adm-nav-bar-back').click();
        await page.waitForURL((u) => u.pathname.endsWith('/about'));
        continue;
      }

      const input = page.locator('[data-testid="mpoi-profile-name"] input, input[data-testid="mpoi-profile-name"]').first();
      const feedback = () => page.locator('.adm-form-item-feedback-error').allInnerTexts();
      const save = () => page.getByTestId('mpoi-profile-save').click();
      const original = await input.inputValue();

      await input.fill('   ');
      await save();
      await expect.poll(feedback).toContain('Name cannot be empty');
      await input.fill('East gate soil moisture probe');
      await save();
      await expect.poll(feedback).toContain('Name must be at most 16 characters');

      // A character the server refuses (a zero-width space): its localized reason under the name.
      await input.fill('East\u200bgate');
      const refused = page.waitForResponse((r) => r.url().endsWith(`/apis/poi/${device.id}/profile`) && r.request().method() === 'PUT');
      await save();
      expect((await refused).status()).toBe(400);
      await expect.poll(async () => (await feedback()).join(' ')).toMatch(/character|U\+200B/i);
      await shot(page, 'mobile-poi-profile-refused.png', FULL);

      await input.fill('East gate probe');
      const saved = page.waitForResponse((r) => r.url().endsWith(`/apis/poi/${device.id}/profile`) && r.request().method() === 'PUT');
      await save();
      expect((await (await saved).json()).code).toBe(0);
      await page.waitForURL((u) => u.pathname.endsWith('/about'));
      await expect.poll(() => page.getByTestId('mpoi-about-profile').innerText()).toContain('East gate probe');

      // Put the demo back as it was.
      const profile = (await (await page.context().request.get(baseURL() + `/apis/poi/${device.id}/profile`)).json()).data;
      const restored = await page.context().request.put(baseURL() + `/apis/poi/${device.id}/profile`, { data: { ...profile, name: original } });
      expect((await restored.json()).code).toBe(0);
    }
  });
});
