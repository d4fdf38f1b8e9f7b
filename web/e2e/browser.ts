import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, inject } from 'vitest';

export const baseURL = () => inject('baseURL');
export const DEMO = { accountNumber: 'demo01', password: 'demo123456' };
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const WECHAT_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Safari/537.36 MicroMessenger/7.0.20.1781(0x6700143B) NetType/WIFI WindowsWechat';
export const screenshotDir = path.join(__dirname, 'screenshots');

type Options = BrowserContextOptions;

let running: Promise<Browser> | null = null;

/** How every flow starts the system Chromium (Playwright cannot download one here). */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** One Chromium per test file, started on first use. */
function chromiumBrowser(): Promise<Browser> {
  running ??= chromium.launch(CHROMIUM_LAUNCH);
  return running;
}

afterAll(async () => {
  if (!running) return;
  const browser = await running;
  running = null;
  await browser.close();
});

/**
 * A fresh browser context: its own cookies, storage and settings, nothing shared with another.
 * It asks for reduced motion, as a user can in their OS: popups open at once, so a click never
 * lands on a menu still zooming in on a busy machine.
 */
export async function openBrowser(options: Options = {}): Promise<BrowserContext> {
  const browser = await chromiumBrowser();
  return browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce', ...options });
}

/** Closes the context and everything open in it. */
export async function closeBrowser(context: BrowserContext) {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 10_000)));
  const gaveUp = await Promise.race([context.close().then(() => false), stuck]);
  clearTimeout(timer);
  if (gaveUp) console.warn(`a browser context did not close within 10 s (${context.pages().map((p) => p.url()).join(', ')}); it ends with the browser`);
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

type Account = { accountNumber: string; password: string };

/** Opens a session (the demo account's unless told) in a context through the login API, without loading a page. */
export async function signIn(context: BrowserContext, { account = DEMO, base = baseURL() }: { account?: Account; base?: string } = {}) {
  const res = await context.request.post(base + '/apis/account/login', { data: account });
  const answer = await res.json();
  if (answer.code !== 0) throw new Error(`login as ${account.accountNumber} failed: ${JSON.stringify(answer)}`);
}

/**
 * Opens a session as signIn does (the tests of the login form itself fill the form), then loads
 * where the login page would have gone: its redirect, or the start page.
 */
export async function login(page: Page, start = '/login', options: { account?: Account; base?: string } = {}) {
  const base = options.base ?? baseURL();
  await signIn(page.context(), { ...options, base });
  const url = new URL(start, base);
  const target = url.pathname.startsWith('/login') ? (url.searchParams.get('redirect') ?? '/') : url.pathname + url.search;
  // Settled as after the login form: the app has asked who is logged in (or the page went quiet).
  const profile = page.waitForResponse((r) => new URL(r.url()).pathname === '/apis/account/session').catch(() => undefined);
  await page.goto(base + target);
  // '/' always redirects (to the device list, or the phone layout): wait until it has, so a test's
  // first click does not land while the page is being replaced.
  await page.waitForURL((u) => !u.pathname.startsWith('/login') && u.pathname !== '/');
  await Promise.race([profile, page.waitForLoadState('networkidle')]);
}

export async function sessionCookie(context: BrowserContext): Promise<string> {
  const c = (await context.cookies(baseURL())).find((c) => c.name === 'fw_session');
  if (!c) throw new Error('no session cookie');
  return c.value;
}

/** A device as the list answers it, with what a detail page's path needs. */
export interface ListedDevice {
  id: number;
  hashId: string;
  name: string;
  sn: string;
  typeId: number;
  page: string;
  slave: boolean;
}

/** The detail page of a device, as the list links it. */
export function detailPath(d: ListedDevice): string {
  return d.page === 'pluviometer' ? `/apps/poi/pluviometer/${d.hashId}` : `/apps/poi/${d.page}/${d.hashId}/${d.id}`;
}
