import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browser, DEMO, eventually, login, PHONE, shot } from './browser';
import type { OwnServer } from './own-server';
import { startWeChatConsole, stubWeChatBridge, WECHAT_APP, WECHAT_UA, type BridgeCall, type WeChatApi } from './wechat';

// The phone app inside WeChat, on the stand-in bridge and the local WeChat API of ./wechat.ts.
let wechat: WeChatApi;
let server: OwnServer | null = null;
let stop: (() => Promise<void>) | null = null;
const base = () => server!.base;

beforeAll(async () => {
  ({ api: wechat, server, stop } = await startWeChatConsole('mobile-wechat'));
});
afterAll(async () => {
  await stop?.();
});

async function inWeChat({ colorScheme = 'light', lang = 'en_US' } = {}) {
  const { context, page } = await browser({ ...PHONE, deviceScaleFactor: 2, userAgent: WECHAT_UA, colorScheme: colorScheme as 'light' | 'dark', lang });
  await context.route('https://open.weixin.qq.com/**', (route) => route.abort());
  await context.addInitScript(stubWeChatBridge);
  const signed: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/apis/wechat/jssdk') signed.push(url.searchParams.get('url') ?? '');
  });
  return { context, page, signed };
}

/** The app's calls; the SDK's own usage report (getNetworkType after each config on Android) left out. */
const calls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __wxCalls: BridgeCall[] }).__wxCalls.filter((call) => call.name !== 'getNetworkType'));

/** WeChat's JS-SDK signature (its documentation, appendix 1). */
function signature(ticket: string, nonceStr: string, timestamp: string, url: string) {
  return createHash('sha1').update(`jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url}`).digest('hex');
}

/** SPEC §9's list, as the SDK hands it to the bridge (it renames previewImage and getLocation). */
const BRIDGE_JS_API_LIST = [
  'hideOptionMenu', 'showMenuItems', 'closeWindow', 'chooseImage', 'imagePreview', 'uploadImage',
  'updateAppMessageShareData', 'hideMenuItems', 'geoLocation', 'openLocation', 'scanQRCode',
];

describe('WeChat mode', () => {
  test('configures the SDK with the server signature of the page, hides the menu then asks for the location, re-signs on navigation, and shares a link while it is shown', async () => {
    const { page, signed } = await inWeChat();
    await login(page, '/apps/mobile/profile', { account: DEMO, base: base() });

    // wx.config: the exact jsApiList, the app id, and a signature made with the ticket for this page.
    await eventually(async () => (await calls(page)).map((call) => call.name).slice(0, 3)).toEqual(['preVerifyJSAPI', 'hideMenuItems', 'geoLocation']);
    const [config, hide, locate] = await calls(page);
    expect(config.args.verifyJsApiList).toEqual(BRIDGE_JS_API_LIST);
    expect(config.args.verifyAppId).toBe(WECHAT_APP.appId);
    const pageUrl = `${base()}/apps/mobile/profile`;
    expect(signed).toEqual([pageUrl]);
    expect(wechat.tickets).toHaveLength(1);
    expect(config.args.verifySignature).toBe(
      signature(wechat.tickets[0], String(config.args.verifyNonceStr), String(config.args.verifyTimestamp), pageUrl),
    );

    // On ready: almost every menu item hidden (sharing among them), then the location, as GPS gives it.
    const hidden = hide.args.menuList as string[];
    expect(hidden).toContain('menuItem:share:appMessage');
    expect(hidden).toContain('menuItem:share:timeline');
    expect(hidden).toContain('menuItem:favorite');
    expect(hidden).not.toContain('menuItem:copyUrl');
    expect(locate.args.type).toBe('wgs84');

    // Android checks the current address: moving in the app signs the new one (the ticket is reused).
    await page.getByText('Authorizations').click();
    await page.waitForURL(/\/apps\/mobile\/authorization$/);
    await eventually(() => signed.length).toBe(2);
    expect(signed[1]).toBe(`${base()}/apps/mobile/authorization`);
    await eventually(async () => (await calls(page)).filter((call) => call.name === 'preVerifyJSAPI').length).toBe(2);
    const reconfig = (await calls(page)).filter((call) => call.name === 'preVerifyJSAPI')[1];
    expect(reconfig.args.verifySignature).toBe(
      signature(wechat.tickets[0], String(reconfig.args.verifyNonceStr), String(reconfig.args.verifyTimestamp), signed[1]),
    );
    expect(wechat.tickets).toHaveLength(1);

    // A share link made in WeChat can be sent to a friend: share data set, the item shown…
    const before = (await calls(page)).length;
    await page.getByRole('button', { name: /Share devices/ }).click();
    const sheet = page.locator('.fw-m-share-sheet');
    const first = sheet.getByTestId('share-device-choices').locator('.adm-checkbox').first();
    await first.waitFor();
    await first.click();
    await sheet.getByRole('button', { name: /Create link/ }).click();
    const link = (await sheet.getByTestId('share-link').innerText()).trim();
    await sheet.getByText('tap ··· at the top right', { exact: false }).waitFor();
    await eventually(async () => (await calls(page)).slice(before).map((call) => call.name)).toEqual(['updateAppMessageShareData', 'showMenuItems']);
    const [shareData, show] = (await calls(page)).slice(before);
    expect(shareData.args).toMatchObject({ link, desc: 'Open the link to accept it; it is valid for 30 minutes.' });
    expect(String(shareData.args.title)).toMatch(/shares 1 device with you/);
    expect(show.args.menuList).toEqual(['menuItem:share:appMessage']);
    await shot(page, 'mobile-wechat-share-en_US-light.png');

    // …and hidden again once the link is closed.
    await sheet.locator('.adm-popup-close-icon').click();
    await eventually(async () => (await calls(page)).slice(before + 2).map((call) => call.name)).toEqual(['hideMenuItems']);
    expect((await calls(page))[before + 2].args.menuList).toEqual(['menuItem:share:appMessage']);
  });

  test('a browser outside WeChat never downloads the SDK', async () => {
    const { page } = await browser({ ...PHONE, deviceScaleFactor: 2 });
    const scripts: Promise<string>[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) scripts.push(response.text().catch(() => ''));
    });
    const signed: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/apis/wechat/jssdk') signed.push(request.url());
    });
    await login(page, '/apps/mobile/authorization', { account: DEMO, base: base() });
    await page.getByRole('button', { name: /Share devices/ }).waitFor();
    await page.waitForLoadState('networkidle');
    const bodies = await Promise.all(scripts);
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.filter((body) => body.includes('preVerifyJSAPI'))).toEqual([]);
    expect(signed).toEqual([]);
  });
});
