import { describe, expect, test } from 'vitest';
import { baseURL, browser, detailPath, deviceOf, listDevices, shot, signIn } from './browser';

describe('device certificates', () => {
  for (const [lang, scheme] of [
    ['en_US', 'light'],
    ['zh_CN', 'dark'],
  ] as const) {
    test(`the owner issues a certificate, sees its key once and revokes it (${lang}, ${scheme})`, async () => {
      const { page } = await browser({ colorScheme: scheme, lang });
      await signIn(page.context());
      const station = deviceOf(await listDevices(page), 5);
      await page.goto(baseURL() + detailPath(station));
      const card = page.getByTestId('poi-certificates');
      await card.scrollIntoViewIfNeeded({ timeout: 30_000 });

      await card.getByRole('button').first().click();
      const issued = page.getByTestId('poi-certificate-issued');
      await expect.poll(() => issued.isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await issued.innerText()).toContain(`${station.sn}.key`);
      await shot(page, `poi-certificate-issued-${lang}-${scheme}.png`);
      await page.keyboard.press('Escape');

      await expect.poll(() => card.locator('.ant-tag-success').count()).toBeGreaterThan(0);
      await shot(page, `poi-certificates-${lang}-${scheme}.png`, { clip: card, mouseAway: true });

      const before = await card.locator('.ant-tag-success').count();
      await card.locator('.ant-table-row').first().getByRole('button').click();
      await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
      await expect.poll(() => card.locator('.ant-tag-success').count()).toBe(before - 1);
    });
  }
});
