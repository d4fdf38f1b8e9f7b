import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browser, eventually, fillLogin, login, PHONE, shot } from './browser';
import { startMailSink, startOwnServer, type OwnServer } from './own-server';
import { scanQRCode, startWeChatConsole } from './wechat';

interface Summary {
  to: string;
  subject: string;
  text: string;
}

const GROWER = { accountNumber: 'grower77', password: 'grower777', name: 'Li Na' };
const STATION = 'TQ7700000001';
const ADDRESS = 'li.na@farm.test';

let server: OwnServer;
let sink: Awaited<ReturnType<typeof startMailSink>>;

beforeAll(async () => {
  sink = await startMailSink();
  server = await startOwnServer({
    name: 'accounts',
    users: [GROWER],
    devices: [{ sn: STATION, type: 5, owner: GROWER.accountNumber }],
    args: ['--smtp-url', `smtp://127.0.0.1:${sink.port}`, '--mail-from', 'Fieldwatch <noreply@fieldwatch.test>'],
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await sink?.stop();
});

function mails(): Summary[] {
  if (!existsSync(sink.dir)) return [];
  return readdirSync(sink.dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(sink.dir, f), 'utf8')) as Summary);
}

/** The code of the newest verification mail to address, once it has arrived. */
async function codeFor(address: string, seen: number): Promise<string> {
  await eventually(() => mails().filter((m) => m.to.includes(address) && /\d{6}/.test(m.subject)).length).toBeGreaterThan(seen);
  const mail = mails()
    .filter((m) => m.to.includes(address) && /\d{6}/.test(m.subject))
    .at(-1)!;
  const code = /(\d{6})/.exec(mail.subject)![1];
  expect(mail.text).toContain(code);
  return code;
}

const codeMails = (address: string) => mails().filter((m) => m.to.includes(address) && /\d{6}/.test(m.subject)).length;

async function open(start: string, options: { lang?: string; colorScheme?: 'light' | 'dark'; phone?: boolean } = {}) {
  const { context, page } = await browser({ ...(options.phone ? PHONE : {}), lang: options.lang ?? 'en_US', colorScheme: options.colorScheme ?? 'light' });
  await login(page, start, { account: GROWER, base: server.base });
  return { context, page };
}

async function report(context: BrowserContext, deviceId: number, values: Record<string, number>) {
  const cred = (await call(context, 'GET', `/apis/poi/encryption?id=${deviceId}`)).data as { username: string; key: string };
  const res = await fetch(`${server.base}/ingest/v1/telemetry`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${cred.username}:${cred.key}`).toString('base64')}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ ts: Date.now() / 1000, values }),
  });
  expect(await res.json()).toMatchObject({ code: 0 });
}

const bindingRow = (page: Page, kind: string) => page.getByTestId(`binding-${kind}`);

/** A call to this file's server with the context's session. */
async function call(context: BrowserContext, method: string, apiPath: string, body?: unknown) {
  const res = await context.request.fetch(server.base + apiPath, { method, data: body, headers: { lang: 'en_US' } });
  return (await res.json()) as { code: number; message: string; data: unknown };
}

/**
 * Clicks "Get code" until a code mail to address arrives: a code sent to the same address less
 * than a minute ago makes the server ask to wait, as it would a person, and this waits as asked.
 */
async function getCode(page: Page, address: string): Promise<string> {
  const seen = codeMails(address);
  const dialog = page.locator('.ant-modal');
  await dialog.getByRole('button', { name: 'Get code' }).click();
  const wait = dialog.getByText(/please try again after (\d+) seconds/);
  await eventually(async () => codeMails(address) > seen || (await wait.isVisible())).toBe(true);
  if (codeMails(address) === seen) {
    const seconds = Number(/after (\d+) seconds/.exec(await wait.innerText())![1]);
    await page.waitForTimeout((seconds + 1) * 1000);
    await dialog.getByRole('button', { name: 'Get code' }).click();
  }
  return codeFor(address, seen);
}

describe('accounts', () => {
  test('a new account binds its e-mail with a code, a frost rule fires, and the alert e-mail reaches that address', async () => {
    const { context, page } = await open('/console/account');
    await eventually(() => bindingRow(page, 'email').isVisible()).toBe(true);
    await shot(page, 'accounts-centre-unbound-en_US-light.png', { fullPage: true, top: true });

    // Bind: a wrong address is refused in the form, then the code from the mail binds the right one.
    await bindingRow(page, 'email').getByRole('button', { name: 'Bind' }).click();
    const dialog = page.locator('.ant-modal');
    await dialog.getByPlaceholder('e.g. name@example.com').fill('li.na@farm');
    await dialog.getByRole('button', { name: 'Get code' }).click();
    await eventually(() => dialog.getByText('Please enter a valid email address').isVisible()).toBe(true);
    await dialog.getByPlaceholder('e.g. name@example.com').fill(ADDRESS);
    const code = await getCode(page, ADDRESS);
    await eventually(() => dialog.getByText(/A code was sent to l\*\*\*@farm\.test/).isVisible()).toBe(true);
    await expect.poll(() => dialog.getByRole('button', { name: /Again in \d+ s/ }).isDisabled()).toBe(true);
    await shot(page, 'accounts-bind-email-dialog-en_US-light.png');
    // A wrong code says how many tries are left; the right one binds.
    await dialog.getByPlaceholder('6 digits').fill(code === '000000' ? '000001' : '000000');
    await dialog.getByRole('button', { name: 'Bind', exact: true }).click();
    await eventually(() => dialog.getByText('Wrong verification code, 4 tries left').isVisible()).toBe(true);
    await dialog.getByPlaceholder('6 digits').fill(code);
    await dialog.getByRole('button', { name: 'Bind', exact: true }).click();
    await eventually(() => bindingRow(page, 'email').getByText(ADDRESS).isVisible()).toBe(true);
    await eventually(() => dialog.isVisible()).toBe(false);
    await shot(page, 'accounts-centre-bound-en_US-light.png', { fullPage: true, top: true });

    // The rule form: e-mail is available now, WeChat (nothing linked) is not, with the way to link it.
    await page.goto(`${server.base}/apps/rules`);
    await page.getByRole('button', { name: /New rule|Add rule/ }).first().click();
    await eventually(() => page.getByTestId('notify-unbound-wechat').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('notify-unbound-email').count()).toBe(0);
    await page.getByTestId('notify-unbound-wechat').scrollIntoViewIfNeeded();
    await shot(page, 'accounts-rule-form-methods-en_US-light.png');

    // A frost rule on the account's own station, notifying by e-mail, and a report below zero.
    const devices = (await call(context, 'GET', '/apis/devices?typeId=5&size=10')).data as { list: { id: number; sn: string; name: string }[] };
    const station = devices.list.find((d) => d.sn === STATION)!;
    expect(station).toBeDefined();
    const templates = (await call(context, 'GET', '/apis/rule/templates?typeId=5')).data as {
      id: string;
      rule: Record<string, unknown> & { expressions: { threshold: number }[] };
    }[];
    const frost = templates.find((t) => t.id === 'frost')!;
    const name = 'Frost at dawn';
    const created = await call(context, 'POST', '/apis/rule', { ...frost.rule, name, deviceIds: [station.id], notify: ['email'] });
    expect(created.code, created.message).toBe(0);
    await report(context, station.id, { airTemp: -2.5 });
    await expect.poll(() => mails().filter((m) => m.subject.includes(name)).length, { timeout: 30_000 }).toBe(1);
    const alert = mails().find((m) => m.subject.includes(name))!;
    expect(alert.to).toContain(ADDRESS);
    expect(alert.text).toContain('-2.5');
  });

  test('a forgotten password is reset from the login page with a code sent to the bound e-mail', async () => {
    // (The first test bound the address; bind it here too when run alone.)
    const { context } = await browser({ lang: 'en_US' });
    const session = await context.request.post(`${server.base}/apis/account/login`, { data: GROWER });
    const profile = (await session.json()) as { data: { mail: string } };
    if (profile.data.mail !== ADDRESS) {
      const seen = codeMails(ADDRESS);
      const sent = await context.request.get(`${server.base}/apis/account/bindings/email/code?address=${encodeURIComponent(ADDRESS)}`, {
        headers: { lang: 'en_US' },
      });
      const { ticket } = ((await sent.json()) as { data: { ticket: string } }).data;
      const code = await codeFor(ADDRESS, seen);
      await context.request.post(`${server.base}/apis/account/bindings`, { data: { channel: 'email', code, ticket } });
    }
    // The session opened before the reset ends with it.
    await context.request.get(`${server.base}/apis/account/profile`);

    const { page } = await browser({ lang: 'en_US' });
    await page.goto(`${server.base}/login`);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const dialog = page.locator('.ant-modal');
    await eventually(() => dialog.getByText('Reset your password').isVisible()).toBe(true);
    await dialog.getByPlaceholder('Enter your account number').fill(GROWER.accountNumber);
    const code = await getCode(page, ADDRESS);
    await dialog.getByPlaceholder('6 digits').fill(code);
    const fresh = 'newharvest8';
    await dialog.getByPlaceholder('At least 6 characters').fill(fresh);
    await dialog.getByPlaceholder('Enter the new password again').fill('different9');
    await dialog.getByRole('button', { name: 'Reset password' }).click();
    await eventually(() => dialog.getByText('The two passwords are inconsistent').isVisible()).toBe(true);
    await dialog.getByPlaceholder('Enter the new password again').fill(fresh);
    await shot(page, 'accounts-forgot-password-en_US-light.png');
    await dialog.getByRole('button', { name: 'Reset password' }).click();
    await eventually(() => page.getByText('Password reset. Log in with the new password').isVisible()).toBe(true);
    expect((await (await context.request.get(`${server.base}/apis/account/profile`)).json()).code).toBe(2);

    await fillLogin(page, GROWER.accountNumber, fresh);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    // Put the password back for the other flows of this file.
    const back = await call(page.context(), 'PUT', '/apis/account/password', { oldPassword: fresh, newPassword: GROWER.password });
    expect(back.code, back.message).toBe(0);
  });

  test('the account centre in three languages, light and dark, and on the phone', async () => {
    for (const [lang, scheme] of [
      ['zh_CN', 'light'],
      ['zh_TW', 'dark'],
      ['en_US', 'dark'],
    ] as const) {
      const { page } = await open('/console/account', { lang, colorScheme: scheme });
      await eventually(() => bindingRow(page, 'email').isVisible()).toBe(true);
      await shot(page, `accounts-centre-${lang}-${scheme}.png`, { fullPage: true, top: true });
    }
    for (const lang of ['zh_CN', 'en_US']) {
      const { page } = await open('/apps/mobile/account', { lang, phone: true });
      await eventually(() => page.getByTestId('mobile-binding-email').isVisible()).toBe(true);
      await shot(page, `accounts-mobile-${lang}-light.png`, { fullPage: true });
      await page.getByTestId('mobile-binding-mobile').click();
      await eventually(() => page.locator('.ant-modal').isVisible()).toBe(true);
      // No SMS service on this server: asking for a code says so.
      await page.locator('.ant-modal input').first().fill('13800138000');
      await page.locator('.ant-modal button').filter({ hasText: lang === 'en_US' ? 'Get code' : '获取验证码' }).click();
      await eventually(() =>
        page.getByText(lang === 'en_US' ? 'SMS is not configured on this server, so phone numbers cannot be verified' : '本服务器未配置短信服务，暂不能验证手机号').isVisible(),
      ).toBe(true);
      await shot(page, `accounts-mobile-phone-dialog-${lang}-light.png`);
    }
    const { page } = await browser({ ...PHONE, lang: 'zh_CN' });
    await page.goto(`${server.base}/login`);
    await eventually(() => page.getByRole('button', { name: '忘记密码？' }).isVisible()).toBe(true);
    await shot(page, 'accounts-login-mobile-zh_CN-light.png');
  });
});

describe('accounts with WeChat', () => {
  const FARMER = { accountNumber: 'grower88', password: 'grower888', name: 'Wang Fang' };
  let wx: Awaited<ReturnType<typeof startWeChatConsole>>;
  beforeAll(async () => {
    wx = await startWeChatConsole('accounts-wechat', [FARMER]);
  }, 120_000);
  afterAll(async () => {
    await wx?.stop();
  });

  test('links WeChat by scanning in the account centre, then logs in by scanning on the login page', async () => {
    const { page } = await browser({ lang: 'en_US' });
    await login(page, '/console/account', { account: FARMER, base: wx.server.base });
    await page.getByTestId('binding-wechat').getByRole('button', { name: 'Bind' }).click();
    const qr = page.locator('.ant-modal .fw-wechat-qr__code img');
    await eventually(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await shot(page, 'accounts-wechat-bind-en_US-light.png');
    // The farmer scans it with WeChat (first follow of the official account).
    expect(await scanQRCode(wx.api, wx.server.base, (await qr.getAttribute('src'))!, 'openid-wang', false)).toEqual({ status: 200, body: 'success' });
    await eventually(() => page.getByTestId('binding-wechat').getByText('Bound', { exact: true }).isVisible()).toBe(true);
    await eventually(() => page.locator('.ant-modal').isVisible()).toBe(false);
    await shot(page, 'accounts-wechat-bound-en_US-light.png', { fullPage: true, top: true });

    const fresh = await browser({ lang: 'en_US' });
    await fresh.page.goto(`${wx.server.base}/login`);
    await fresh.page.getByRole('button', { name: 'Scan with WeChat' }).click();
    const loginQR = fresh.page.locator('.ant-modal .fw-wechat-qr__code img');
    await eventually(() => loginQR.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await shot(fresh.page, 'accounts-wechat-login-en_US-light.png');
    await scanQRCode(wx.api, wx.server.base, (await loginQR.getAttribute('src'))!, 'openid-wang');
    await fresh.page.waitForURL((u) => u.pathname.startsWith('/apps/'));
    const me = await fresh.context.request.get(`${wx.server.base}/apis/account/profile`);
    expect(((await me.json()) as { data: { accountNumber: string } }).data.accountNumber).toBe(FARMER.accountNumber);
  });
});
