import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseURL, browser, fillLogin, login, PHONE, sessionCookie, shot, WECHAT_UA } from './browser';

const mainMenu = (page: Page) => page.getByRole('navigation').first();
describe('login', () => {
  test('the demo account logs in and lands on the device list, in Simplified Chinese by default', async () => {
    const { page } = await browser({ colorScheme: 'light' });
    // Finding out that nobody is logged in is not an error: no 4xx answer, nothing in the console.
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) refused.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') refused.push(m.text());
    });
    await page.goto(baseURL() + '/');
    await page.waitForURL(/\/login\?redirect=/);
    await page.locator('form#login button[type="submit"]').waitFor();
    expect(refused).toEqual([]);
    await fillLogin(page, 'demo01', 'demo123456');
    await page.waitForURL(/\/apps\/devices$/);
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await expect.poll(() => mainMenu(page).innerText()).toContain('设备');
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('light');
    await shot(page, 'desktop-light.png');
  });

  for (const [lang, message] of [
    ['zh_CN', '账号或密码错误'],
    ['zh_TW', '帳號或密碼錯誤'],
    ['en_US', 'Incorrect account number or password'],
  ] as const) {
    test(`a wrong password shows the localized error (${lang})`, async () => {
      const { page } = await browser({ lang });
      await page.goto(baseURL() + '/login');
      const request = page.waitForRequest((r) => r.url().endsWith('/apis/account/login'));
      await fillLogin(page, 'demo01', 'wrong-password');
      expect((await request).headers()['lang']).toBe(lang);
      await expect.poll(() => page.getByRole('alert').allInnerTexts()).toContainEqual(expect.stringContaining(message));
      expect(new URL(page.url()).pathname).toBe('/login');
      if (lang === 'en_US') await shot(page, 'login-error.png');
    });
  }

  test('the login form checks the rules before calling the server', async () => {
    const { page } = await browser({ lang: 'en_US' });
    await page.goto(baseURL() + '/login');
    let called = false;
    page.on('request', (r) => {
      if (r.url().includes('/apis/account/login')) called = true;
    });
    await fillLogin(page, 'abc', '123');
    await expect
      .poll(() => page.locator('#login_accountNumber_help, #login_password_help').allInnerTexts())
      .toEqual([expect.stringMatching(/at least 6/), expect.stringMatching(/at least 6/)]);
    expect(called).toBe(false);
  });
});

describe('shell', () => {
  test('switching language changes the menu, is remembered, and is sent as the lang header', async () => {
    const { page } = await browser();
    await login(page);
    await expect.poll(() => mainMenu(page).innerText()).toContain('设备');

    await page.getByRole('button', { name: /语言|简体中文/ }).first().click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await expect.poll(() => mainMenu(page).innerText()).toContain('Device');
    expect(await page.evaluate(() => localStorage.getItem('i18n'))).toBe('en_US');

    await page.getByRole('button', { name: /Language|English/ }).first().click();
    await page.getByRole('menuitemradio', { name: '繁體中文' }).click();
    await expect.poll(() => mainMenu(page).innerText()).toContain('設備');

    const profile = page.waitForRequest((r) => r.url().endsWith('/apis/account/session'));
    await page.reload();
    expect((await profile).headers()['lang']).toBe('zh_TW');
    await expect.poll(() => mainMenu(page).innerText()).toContain('設備');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('zh-TW');
  });

  test('dark mode toggles, persists, and follows the OS when nothing is stored', async () => {
    const { page } = await browser({ colorScheme: 'light' });
    await login(page);
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('light');
    await page.getByTestId('theme-toggle').first().click();
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.reload();
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('dark');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r + g + b).toBeLessThan(200); // a dark page, not only an attribute
    await shot(page, 'desktop-dark.png');

    const os = await browser({ colorScheme: 'dark' });
    await os.page.goto(baseURL() + '/login');
    await expect.poll(() => os.page.locator('html').getAttribute('data-theme')).toBe('dark');
  });

  test('an unknown path shows the not-found page', async () => {
    const { page } = await browser({ lang: 'en_US' });
    await login(page, '/no/such/page');
    await expect.poll(() => page.locator('body').innerText()).toMatch(/not found|does not exist/i);
  });

  test('the account page renames the account', async () => {
    const { page } = await browser({ lang: 'en_US' });
    await login(page, '/login?redirect=%2Fconsole%2Faccount');
    await page.waitForURL(/\/console\/account$/);
    await expect.poll(() => page.locator('body').innerText()).toContain('demo01');
    const name = page.locator('input#name, input[id$="_name"]').first();
    await name.fill('');
    await name.press('Enter');
    await expect.poll(() => page.locator('body').innerText()).toContain('Name cannot be empty');
    await name.fill('Demo Farm East');
    const saved = page.waitForResponse((r) => r.url().endsWith('/apis/account/name') && r.request().method() === 'PUT');
    await name.press('Enter');
    expect((await (await saved).json()).code).toBe(0);
    await page.reload();
    await expect.poll(() => page.locator('body').innerText()).toContain('Demo Farm East');
    await shot(page, 'desktop-account.png');
  });
});

test('the password form checks its rules and shows the server refusing a wrong current password', async () => {
  const { page } = await browser({ lang: 'en_US' });
  await login(page, '/login?redirect=%2Fconsole%2Faccount');
  await page.waitForURL(/\/console\/account$/);
  const form = page.locator('form#change-password');
  const submit = () => form.locator('button[type="submit"]').click();
  const errors = () => page.locator('form#change-password .ant-form-item-explain-error').allInnerTexts();

  await form.locator('#change-password_oldPassword').fill('demo123456');
  await form.locator('#change-password_newPassword').fill('demo123456');
  await form.locator('#change-password_confirmPassword').fill('demo654321');
  await submit();
  await expect.poll(errors).toEqual(
    expect.arrayContaining(['The new password must differ from the current one', 'The two passwords are inconsistent']),
  );

  await form.locator('#change-password_oldPassword').fill('not-my-password');
  await form.locator('#change-password_newPassword').fill('fresh-pass-1');
  await form.locator('#change-password_confirmPassword').fill('fresh-pass-1');
  const answer = page.waitForResponse((r) => r.url().endsWith('/apis/account/password'));
  await submit();
  expect((await answer).status()).toBe(400);
  await expect.poll(() => form.innerText()).toContain('The old password is incorrect');
});

describe('mobile', () => {
  test('a phone lands on /apps/mobile/', async () => {
    const { page } = await browser(PHONE);
    await page.goto(baseURL() + '/');
    await page.waitForURL(/\/login/);
    await fillLogin(page, 'demo01', 'demo123456');
    await page.waitForURL(/\/apps\/mobile\//);
    await shot(page, 'mobile.png');
    await page.goto(baseURL() + '/console/account');
    await page.waitForURL(/\/apps\/mobile\/account/);
    await shot(page, 'mobile-account.png', { fullPage: true });
  });

  test('the phone layout follows a dark OS theme', async () => {
    const { context, page } = await browser({
      ...PHONE,
      colorScheme: 'dark',
      locale: 'zh-TW',
    });
    await login(page, '/apps/mobile/profile');
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('dark');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('zh-TW'); // from the browser
    await shot(page, 'mobile-dark-profile.png');
    await page.goto(baseURL() + '/apps/mobile/account');
    await shot(page, 'mobile-dark-account.png', { fullPage: true });
    expect(await sessionCookie(context)).not.toBe('');
  });

  test('the WeChat in-app browser is mobile at any width', async () => {
    const { page } = await browser({ userAgent: WECHAT_UA });
    await login(page, '/apps/devices');
    await page.waitForURL(/\/apps\/mobile\//);
  });

  test('a narrow desktop browser stays on the desktop layout', async () => {
    const { page } = await browser({ viewport: { width: 700, height: 900 } });
    await login(page, '/apps/devices');
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/apps/devices');
  });
});

describe('session', () => {
  test('a session deleted on the server sends the user back to login, with a way back', async () => {
    const { context, page } = await browser();
    await login(page, '/login?redirect=%2Fconsole%2Faccount');
    await page.waitForURL(/\/console\/account$/);
    const token = await sessionCookie(context);
    const res = await fetch(baseURL() + '/apis/account/logout', { method: 'POST', headers: { Cookie: `fw_session=${token}` } });
    expect((await res.json()).code).toBe(0);

    await page.reload();
    await page.waitForURL(/\/login\?redirect=%2Fconsole%2Faccount/);
    await fillLogin(page, 'demo01', 'demo123456');
    await page.waitForURL(/\/console\/account$/);
  });

  test('logging out from the menu ends the session', async () => {
    const { context, page } = await browser({ lang: 'en_US' });
    await login(page);
    const token = await sessionCookie(context);
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: /log out/i }).click();
    await page.waitForURL(/\/login/);
    const res = await fetch(baseURL() + '/apis/account/profile', { headers: { Cookie: `fw_session=${token}` } });
    expect((await res.json()).code).toBe(2);
  });
});
