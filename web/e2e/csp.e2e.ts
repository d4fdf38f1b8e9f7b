import { describe, expect, test } from 'vitest';
import { baseURL, browser, detailPath, deviceOf, fillLogin, listDevices, PHONE, presetLanguage, quiet, type BrowserOptions } from './browser';

/** Charts load their code on first use and the machine is shared: give the page time. */
const SLOW = { timeout: 20_000 };

/**
 * A page whose Content-Security-Policy violations are collected: the
 * securitypolicyviolation events of every document it loads, and the console
 * messages Chromium writes for each.
 */
async function watchedPage(options?: BrowserOptions) {
  const { context, page } = await browser(options);
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const console: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) console.push(m.text());
  });
  const violations = async () => [
    ...console,
    ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
  ];
  return { context, page, violations };
}

describe('Content-Security-Policy', () => {
  test('every response carries the policy, and it refuses an injected inline script', async () => {
    const { page, violations } = await watchedPage();
    const res = await page.goto(baseURL() + '/login');
    const policy = res?.headers()['content-security-policy'] ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "connect-src 'self'", "object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'"]) {
      expect(policy).toContain(directive);
    }
    expect(policy).toMatch(/img-src 'self' data: https:\/\/tile\.openstreetmap\.org/);
    await page.locator('#login_accountNumber').waitFor();
    const ran = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.inlineRan = true';
      document.body.append(s);
      return (window as unknown as { inlineRan?: boolean }).inlineRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(violations).toContainEqual(expect.stringMatching(/^script-src-elem blocked inline/));
  });

  test('the login page, the device list and map, and device pages run without a violation', async () => {
    const { context, page, violations } = await watchedPage({ colorScheme: 'dark' });
    await presetLanguage(context, 'en_US');
    await page.goto(baseURL() + '/login');
    await page.locator('#login_accountNumber').waitFor();
    // antd's CSS-in-JS styles took effect: the submit button is drawn as a primary button.
    await expect.poll(() => page.locator('form#login button[type="submit"]').evaluate((b) => getComputedStyle(b).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    await quiet(page);
    expect(await violations()).toEqual([]);

    await fillLogin(page, 'demo01', 'demo123456');
    await page.waitForURL(/\/apps\/devices$/);
    await quiet(page);
    expect(await violations()).toEqual([]);

    await page.goto(baseURL() + '/apps/devices?view=map');
    await page.locator('.fw-device-map .leaflet-container').first().waitFor();
    await quiet(page);
    expect(await violations()).toEqual([]);

    const devices = await listDevices(context);
    // Soil and weather, a camera insect trap (stored photos), a rain gauge.
    for (const typeId of [21, 20, 6]) {
      const device = deviceOf(devices, typeId);
      await page.goto(baseURL() + detailPath(device));
      await expect.poll(() => page.getByTestId('poi-device-name').innerText(), SLOW).toBe(device.name);
      await expect.poll(() => page.locator('[data-testid="poi-chart"] canvas').count(), SLOW).toBeGreaterThan(0);
      await quiet(page);
      expect(await violations(), device.page).toEqual([]);
    }
  });

  test('the phone layout runs without a violation', async () => {
    const { page, violations } = await watchedPage(PHONE);
    await page.goto(baseURL() + '/login');
    await page.locator('#login_accountNumber').waitFor();
    await fillLogin(page, 'demo01', 'demo123456');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await quiet(page);
    expect(await violations()).toEqual([]);
  });
});
