import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const baseURL = () => inject('baseURL');
export const DEMO = { accountNumber: 'demo01', password: 'demo123456' };
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const WECHAT_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Safari/537.36 MicroMessenger/7.0.20.1781(0x6700143B) NetType/WIFI WindowsWechat';
export const screenshotDir = path.join(__dirname, 'screenshots');

type Options = Parameters<typeof chromium.launchPersistentContext>[1];

const profiles = new Map<BrowserContext, string>();

/** A fresh Chromium profile (system Chromium; Playwright cannot download one here). */
export async function openBrowser(options: Options = {}): Promise<BrowserContext> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fieldwatch-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1440, height: 900 },
    ...options,
  });
  profiles.set(context, dir);
  return context;
}

/** Closes the browser, then deletes its profile (Chromium writes to it until it exits). */
export async function closeBrowser(context: BrowserContext) {
  await context.close();
  const dir = profiles.get(context);
  profiles.delete(context);
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
}

/** Sets the stored language before any page script runs. */
export async function presetLanguage(context: BrowserContext, lang: string) {
  await context.addInitScript((l) => {
    if (!sessionStorage.getItem('fw-e2e-lang-set')) {
      localStorage.setItem('i18n', l);
      sessionStorage.setItem('fw-e2e-lang-set', '1');
    }
  }, lang);
}

export async function fillLogin(page: Page, accountNumber: string, password: string) {
  await page.locator('#login_accountNumber').fill(accountNumber);
  await page.locator('#login_password').fill(password);
  await page.locator('form#login button[type="submit"]').click();
}

/** Logs in through the login page and waits to leave it. */
export async function login(page: Page, start = '/login') {
  await page.goto(baseURL() + start);
  await page.waitForURL(/\/login/);
  await fillLogin(page, DEMO.accountNumber, DEMO.password);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

export async function sessionCookie(context: BrowserContext): Promise<string> {
  const c = (await context.cookies(baseURL())).find((c) => c.name === 'fw_session');
  if (!c) throw new Error('no session cookie');
  return c.value;
}
