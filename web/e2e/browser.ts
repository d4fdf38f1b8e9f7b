import path from 'node:path';
import { chromium, type APIRequestContext, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, expect, inject } from 'vitest';

export const baseURL = () => inject('baseURL');
export const DEMO = { accountNumber: 'demo01', password: 'demo123456' };
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const WECHAT_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Safari/537.36 MicroMessenger/7.0.20.1781(0x6700143B) NetType/WIFI WindowsWechat';
export const screenshotDir = path.join(__dirname, 'screenshots');
/** A phone: 390×844, an iPhone's user agent, touch (add deviceScaleFactor: 2 for sharp screenshots). */
export const PHONE = { viewport: { width: 390, height: 844 }, userAgent: IPHONE_UA, isMobile: true, hasTouch: true };

type Options = BrowserContextOptions;

/** Waits for a value to pass, longer than vitest's default second: two shared cores run this. */
export const eventually = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 15_000 });

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

let opened: BrowserContext[] = [];
const closing: ((context: BrowserContext) => Promise<void>)[] = [];

/** Work to do on each context a test opened with browser(), before it closes (cleanup through its session). */
export function beforeClosing(cleanup: (context: BrowserContext) => Promise<void>) {
  closing.push(cleanup);
}

afterEach(async () => {
  const contexts = opened;
  opened = [];
  for (const context of contexts) for (const cleanup of closing) await cleanup(context);
  await Promise.all(contexts.map(closeBrowser));
});

export type BrowserOptions = Options & {
  /** The stored language, set before any page script runs (the app's default, zh_CN, unless told). */
  lang?: string;
};

/** A fresh browser context (see openBrowser) and its page, nobody logged in; closed after the test. */
export async function browser({ lang, ...options }: BrowserOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await openBrowser(options);
  opened.push(context);
  if (lang) await presetLanguage(context, lang);
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

/**
 * A fresh browser as browser() opens it, logged in (as the demo account unless told) on a server
 * (the shared one unless told), at the page given as login() goes there.
 */
export async function loggedIn(
  start = '/login',
  { account, base, ...options }: BrowserOptions & { account?: Account; base?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await browser(options);
  await login(page, start, { account, base });
  return { context, page };
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

export type Account = { accountNumber: string; password: string };

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

/** An API answer. */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** Calls the API from the page, with its session, in English. */
export async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<Envelope<T>> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', lang: 'en_US' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    },
    { method, url, body },
  );
}

/** Calls the API from the test with the session of a context, in English (set-up and cleanup). */
export async function apiCall(context: BrowserContext, method: string, apiPath: string, body?: unknown) {
  const res = await fetch(baseURL() + apiPath, {
    method,
    headers: { Cookie: `fw_session=${await sessionCookie(context)}`, 'Content-Type': 'application/json', lang: 'en_US' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: unknown };
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
  status: string;
}

/** The detail page of a device, as the list links it. */
export function detailPath(d: ListedDevice): string {
  return d.page === 'pluviometer' ? `/apps/poi/pluviometer/${d.hashId}` : `/apps/poi/${d.page}/${d.hashId}/${d.id}`;
}

/** The demo devices, asked with a page's or context's session (no page need be open), sorted by name. */
export async function listDevices(session: { request: APIRequestContext }, base = baseURL()): Promise<ListedDevice[]> {
  const res = await session.request.get(base + '/apis/devices?size=100&sort=name');
  return (await res.json()).data.list;
}

/** The n-th (0-based) non-slave device of a type. */
export function deviceOf(devices: ListedDevice[], typeId: number, nth = 0): ListedDevice {
  const found = devices.filter((d) => d.typeId === typeId && !d.slave)[nth];
  if (!found) throw new Error(`no demo device of type ${typeId}`);
  return found;
}

/** The page's user's own devices of a type, hosts only (their slaves left out), as the list answers them. */
export async function myDevices(page: Page, typeId: number): Promise<ListedDevice[]> {
  const answer = await api<{ list: ListedDevice[] }>(page, 'GET', `/apis/devices?typeId=${typeId}&belong=mine&page=1&size=50`);
  return answer.data.list.filter((device) => !device.slave);
}

/** Waits until nothing more is requested and the progress bar is gone. */
export async function quiet(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.locator('#nprogress').waitFor({ state: 'detached' });
}

/** Waits until the CSS animations and transitions that end have ended (a cancelled one has settled too). */
export async function animationsDone(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** Waits for the page to settle: requests done, progress bar and transitions finished. */
export async function settle(page: Page) {
  await quiet(page);
  await animationsDone(page);
}

/**
 * Screenshots once the page has settled, to screenshots/<name>. `top` scrolls up first (a full
 * page shot would put the sticky top bar mid-page), `mouseAway` moves the pointer off any hover
 * tooltip, `clip` shoots one element only.
 */
export async function shot(page: Page, name: string, { fullPage = false, top = false, mouseAway = false, clip }: { fullPage?: boolean; top?: boolean; mouseAway?: boolean; clip?: Locator } = {}) {
  if (top) await page.evaluate(() => window.scrollTo(0, 0));
  if (mouseAway) await page.mouse.move(0, 0);
  await settle(page);
  const file = path.join(screenshotDir, name);
  if (clip) await clip.screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage });
}
