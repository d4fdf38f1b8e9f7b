import type { Locator } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseURL, browser, detailPath, deviceOf, listDevices, PHONE, shot, signIn } from './browser';

/** Screens looked at on a phone-sized window and in the dark theme, and the unread badge in the side menu. */

const SLOW = { timeout: 20_000 };

type Box = { x: number; y: number; width: number; height: number };

/** Where a menu item's label text is drawn (its element may stretch past the text). */
function textBox(label: Locator): Promise<Box> {
  return label.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
}

/** Whether one box overlaps another by more than a pixel. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 1 && h > 1;
}

describe('the login page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`on a phone (${scheme})`, async () => {
      const { page } = await browser({ ...PHONE, colorScheme: scheme });
      await page.goto(baseURL() + '/login');
      await page.locator('form#login button[type="submit"]').waitFor();
      // Nothing sticks out sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport.width);
      await shot(page, `login-phone-${scheme}.png`);
    });
  }

  test('on a desktop (dark)', async () => {
    const { page } = await browser({ colorScheme: 'dark' });
    await page.goto(baseURL() + '/login');
    await page.locator('form#login button[type="submit"]').waitFor();
    await shot(page, 'login-desktop-dark.png');
  });
});

describe('the data download dialog', () => {
  for (const [size, viewport] of [['phone', PHONE.viewport], ['desktop', undefined]] as const) {
    for (const scheme of size === 'phone' ? (['light', 'dark'] as const) : (['dark'] as const)) {
      test(`from a device page, ${size} (${scheme})`, async () => {
        const { context, page } = await browser({ colorScheme: scheme, ...(viewport ? { viewport } : {}), lang: 'en_US' });
        await signIn(context);
        const station = deviceOf(await listDevices(context), 21);
        await page.goto(baseURL() + detailPath(station));
        await expect.poll(() => page.getByTestId('poi-device-name').innerText(), SLOW).toBe(station.name);
        await shot(page, `poi-page-${size}-${scheme}.png`);
        // The header's buttons wrap within the window rather than run off its edge.
        const actions = (await page.locator('.fw-poi-header__actions').boundingBox())!;
        expect(actions.x + actions.width).toBeLessThanOrEqual(viewport?.width ?? 1440);
        await page.getByRole('button', { name: 'Download data' }).click();
        const dialog = page.getByRole('dialog', { name: 'Download data' });
        await dialog.getByTestId('poi-export-submit').waitFor();
        const box = (await dialog.boundingBox())!;
        const width = viewport?.width ?? 1440;
        // The dialog fits the window, with its whole width readable.
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        await shot(page, `poi-download-dialog-${size}-${scheme}.png`);
      });
    }
  }
});

describe('the unread badge of the side menu', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`stays clear of the Events icon, expanded and collapsed (${scheme})`, async () => {
      const { context, page } = await browser({ colorScheme: scheme, lang: 'en_US' });
      await signIn(context);
      await page.goto(baseURL() + '/apps/rules');
      const sider = page.locator('.fw-sider');
      const item = sider.getByRole('menuitem', { name: /Events/ });
      const badge = item.getByTestId('unread-badge').locator('.ant-badge-count, .ant-scroll-number').first();
      await badge.waitFor(SLOW);
      for (const state of ['expanded', 'collapsed'] as const) {
        if (state === 'collapsed') {
          await sider.getByRole('button', { name: 'Collapse' }).click();
          await expect.poll(() => sider.evaluate((el) => el.getBoundingClientRect().width)).toBe(64);
        }
        await shot(page, `sider-unread-${state}-${scheme}.png`, { clip: sider });
        const icon = (await item.locator('.anticon').first().boundingBox())!;
        const count = (await badge.boundingBox())!;
        const itemBox = (await item.boundingBox())!;
        expect(overlap(icon, count), `${state}: badge ${JSON.stringify(count)} over icon ${JSON.stringify(icon)}`).toBe(false);
        // The count stays inside its menu item, where it can be read.
        expect(count.x).toBeGreaterThanOrEqual(itemBox.x);
        expect(count.x + count.width).toBeLessThanOrEqual(itemBox.x + itemBox.width);
        if (state === 'expanded') {
          const label = await textBox(item.locator('.ant-menu-title-content'));
          expect(overlap(label, count), `${state}: badge over the label`).toBe(false);
        }
      }
      await sider.getByRole('button', { name: 'Expand' }).click();

      // The top menu's Event entry: the count after the label, on neither the icon nor the label.
      const top = page.locator('.fw-header .ant-menu-horizontal').getByRole('menuitem', { name: /Event/ });
      const topCount = (await top.getByTestId('unread-badge').locator('.ant-badge-count, .ant-scroll-number').first().boundingBox())!;
      const topIcon = (await top.locator('.anticon').first().boundingBox())!;
      const topLabel = await textBox(top.locator('.ant-menu-title-content'));
      expect(overlap(topIcon, topCount), 'top menu: badge over the icon').toBe(false);
      await shot(page, `header-unread-${scheme}.png`, { clip: page.locator('.fw-header') });
      expect(overlap(topLabel, topCount), `top menu: badge ${JSON.stringify(topCount)} over the label ${JSON.stringify(topLabel)}`).toBe(false);
      await shot(page, `header-unread-${scheme}.png`, { clip: page.locator('.fw-header') });
    });
  }
});
