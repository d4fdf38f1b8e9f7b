import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import enSharing from '../src/locales/en_US/sharing.json';
import cnSharing from '../src/locales/zh_CN/sharing.json';
import twSharing from '../src/locales/zh_TW/sharing.json';
import enDevices from '../src/locales/en_US/devices.json';
import cnDevices from '../src/locales/zh_CN/devices.json';
import twDevices from '../src/locales/zh_TW/devices.json';
import { closeBrowser, DEMO, fillLogin, IPHONE_UA, login, openBrowser, presetLanguage, shot, type ListedDevice } from './browser';
import type { OwnServer } from './own-server';
import { startWeChatConsole, stubWeChatBridge, WECHAT_APP, WECHAT_UA } from './wechat';

// Issue 17's "must show": the phone app walked end to end at 390×844, once in a phone browser and
// once inside WeChat. WeChat's native bridge cannot be reached here, so inside WeChat the page gets
// a stand-in WeixinJSBridge (the object the official JS-SDK talks to) that answers as WeChat does
// and reports every call to the test; the real weixin-js-sdk runs on top of it. The server signs
// pages with a ticket from a local server speaking WeChat's token/ticket format, and a second
// account accepts the owner's share link on its own phone.
const GRANTEE = { accountNumber: 'grower05', password: 'grower123', name: 'Li Na' };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** SPEC §9's jsApiList, as the SDK hands it to WeChat's bridge: previewImage and getLocation under their bridge names. */
const SPEC_JS_API_LIST = [
  'hideOptionMenu', 'showMenuItems', 'closeWindow', 'chooseImage', 'previewImage', 'uploadImage',
  'updateAppMessageShareData', 'hideMenuItems', 'getLocation', 'openLocation', 'scanQRCode',
];
const BRIDGE_NAMES: Record<string, string> = { previewImage: 'imagePreview', getLocation: 'geoLocation' };

/** One demo device type for each realtime child (docs/device-types.md); their figures are checked in mobile-poi.e2e.ts. */
const REALTIME = {
  liquidometer: 19,
  ibiosense: 20,
  'shan-jing': 8,
  moisture: 1,
  'zhi-shang': 2,
  'meteorological-moisture': 21,
  tianqi: 7,
  pluviometer: 6,
  'yun-yao': 10,
  dcr004: 3,
} as const;

type Lang = 'zh_CN' | 'zh_TW' | 'en_US';
type Scheme = 'light' | 'dark';
const TEXT = {
  en_US: { sharing: enSharing, devices: enDevices },
  zh_CN: { sharing: cnSharing, devices: cnDevices },
  zh_TW: { sharing: twSharing, devices: twDevices },
};

let server: OwnServer | null = null;
let stop: (() => Promise<void>) | null = null;
const base = () => server!.base;

beforeAll(async () => {
  ({ server, stop } = await startWeChatConsole('mobile-walk', [GRANTEE]));
});
afterAll(async () => {
  await stop?.();
});

let contexts: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.map(closeBrowser));
  contexts = [];
});

interface WxCall {
  name: string;
  args: Record<string, unknown>;
}

type Kind = 'phone' | 'wechat';

/** A phone (390×844) in a phone browser or in WeChat; WeChat's calls collect in `wx`, errors in `errors`. */
async function phone(kind: Kind, lang: Lang, scheme: Scheme) {
  const context = await openBrowser({ ...PHONE, userAgent: kind === 'wechat' ? WECHAT_UA : IPHONE_UA, colorScheme: scheme });
  contexts.push(context);
  await presetLanguage(context, lang);
  const wx: WxCall[] = [];
  if (kind === 'wechat') {
    // The SDK's own usage report goes to WeChat's servers: not from here.
    await context.route('https://open.weixin.qq.com/**', (route) => route.abort());
    await context.exposeBinding('__wxReport', (_source, call: WxCall) => {
      if (call.name !== 'getNetworkType') wx.push(call);
    });
    await context.addInitScript(stubWeChatBridge);
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  return { context, page, wx, errors };
}

const eventually = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 30_000 });

/** Screenshots once the page has settled: requests done, transitions finished. */
const walkShot = (page: Page, name: string) => shot(page, `walk-${name}.png`);
async function apiGet<T>(page: Page, url: string): Promise<T> {
  const answer = (await (await page.context().request.get(base() + url)).json()) as { code: number; data: T };
  expect(answer.code, url).toBe(0);
  return answer.data;
}

const deviceRows = (page: Page) => page.getByTestId('mobile-device-row');
const rowNames = (page: Page) => page.locator('[data-testid="mobile-device-row"] .fw-m-device__name > span:first-child').allInnerTexts();
const names = (calls: WxCall[]) => calls.map((call) => call.name);
const deviceBase = (d: { hashId: string; id: number }) => `/apps/mobile/poi/${d.hashId}/${d.id}`;

/** The GCJ-02 offset moves a point in north China a few hundred metres: more than 0.001°, less than 0.01°. */
function expectGcj02(target: Record<string, unknown>, lng: number, lat: number) {
  const dLng = Math.abs(Number(target.longitude) - lng);
  const dLat = Math.abs(Number(target.latitude) - lat);
  expect(dLng + dLat).toBeGreaterThan(0.001);
  expect(dLng).toBeLessThan(0.01);
  expect(dLat).toBeLessThan(0.01);
}

describe('the phone app walked through', () => {
  for (const [kind, lang, scheme] of [
    ['phone', 'en_US', 'light'],
    ['wechat', 'zh_CN', 'dark'],
  ] as const) {
    test(`${kind === 'wechat' ? 'inside WeChat' : 'in a phone browser'} (${lang}, ${scheme}): log in, list, search, map, every realtime child, history zoom, rename, a message, a grant link accepted`, async () => {
      const name = (step: string) => `${kind}-${step}-${lang}-${scheme}`;
      const text = TEXT[lang];
      const { page, wx, errors } = await phone(kind, lang, scheme);

      // Log in with the form; the phone lands on the devices tab.
      await page.goto(base() + '/');
      await page.waitForURL(/\/login/);
      await page.locator('#login_accountNumber').waitFor();
      await walkShot(page, name('login'));
      await fillLogin(page, DEMO.accountNumber, DEMO.password);
      await page.waitForURL(/\/apps\/mobile\/devices/);

      if (kind === 'wechat') {
        // wx.config with exactly SPEC §9's list, signed by the server for this app id; once ready the
        // menu is hidden, then the location asked for (as GPS gives it).
        await eventually(() => names(wx).slice(0, 3)).toEqual(['preVerifyJSAPI', 'hideMenuItems', 'geoLocation']);
        const [config, hide, locate] = wx;
        expect(config.args.verifyJsApiList).toEqual(SPEC_JS_API_LIST.map((api) => BRIDGE_NAMES[api] ?? api));
        expect(config.args.verifyAppId).toBe(WECHAT_APP.appId);
        expect(String(config.args.verifySignature)).toMatch(/^[0-9a-f]{40}$/);
        expect(hide.args.menuList).toEqual(expect.arrayContaining(['menuItem:share:appMessage', 'menuItem:share:timeline', 'menuItem:favorite']));
        expect(locate.args.type).toBe('wgs84');
      } else {
        expect(wx).toEqual([]);
      }

      // The devices list.
      const { list } = await apiGet<{ list: (ListedDevice & { lng: number | null; lat: number | null })[] }>(page, '/apis/devices?size=100&sort=name');
      await deviceRows(page).first().waitFor();
      await walkShot(page, name('devices'));

      // Search by the last five digits of a serial number.
      const target = list.find((d) => /\d{5}$/.test(d.sn) && list.filter((o) => o.sn.endsWith(d.sn.slice(-5))).length === 1)!;
      await page.locator('.fw-m-filters__search input').fill(target.sn.slice(-5));
      await eventually(() => rowNames(page)).toEqual([target.name]);
      await walkShot(page, name('devices-search'));
      await page.locator('.fw-m-filters__search .adm-input-clear').click();
      await eventually(() => new URL(page.url()).searchParams.get('nameOrSn')).toBeNull();

      // The map, then a device's card and its navigation.
      await page.getByTestId('view-toggle').click();
      await page.waitForURL(/view=map/);
      await page.getByTestId('device-map').locator('.fw-cluster').first().waitFor();
      await walkShot(page, name('map'));
      const placed = list.find((d) => d.lng !== null && d.lat !== null && !d.slave)!;
      await page.goto(base() + `/apps/mobile/devices?view=map&focus=${placed.id}`);
      const card = page.getByTestId('mobile-device-card');
      await eventually(() => card.locator('.fw-m-card__name').innerText()).toBe(placed.name);
      await walkShot(page, name('map-card'));
      if (kind === 'wechat') {
        await eventually(() => names(wx).filter((n) => n === 'preVerifyJSAPI').length).toBeGreaterThan(1);
        await eventually(() => card.getByRole('link').count()).toBe(0);
        const before = wx.length;
        await card.getByRole('button', { name: text.devices.map.openMap }).click();
        await eventually(() => names(wx.slice(before))).toEqual(['openLocation']);
        const open = wx[before].args;
        expect(open.name).toBe(placed.name);
        expectGcj02(open, placed.lng!, placed.lat!);
      } else {
        expect(await card.getByRole('link', { name: '高德地图' }).getAttribute('href')).toMatch(/^https:\/\/uri\.amap\.com\/marker\?/);
        expect(await card.getByRole('button', { name: text.devices.map.openMap }).count()).toBe(0);
      }

      // Every realtime child on a demo device of its type.
      for (const [type, typeId] of Object.entries(REALTIME)) {
        const device = list.find((d) => d.typeId === typeId && !d.slave)!;
        await page.goto(base() + `${deviceBase(device)}/realtime/${type}`);
        await page.locator(`[data-testid="mpoi-realtime"][data-type="${type}"]`).waitFor({ timeout: 30_000 });
        await eventually(() => page.getByTestId('mpoi-device-name').innerText()).toBe(device.name);
        await walkShot(page, name(`realtime-${type}`));
        if (type !== 'ibiosense') continue;

        // A camera picture tapped: WeChat's viewer with the gallery's pictures in full, or the app's own.
        // The newest picture is tapped (the demo camera may have only one yet).
        const latest = page.getByTestId('mpoi-image-latest');
        await latest.waitFor({ timeout: 30_000 });
        const srcs = await page.locator('[data-testid="mpoi-gallery"] button img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).src));
        expect(srcs.length).toBeGreaterThan(0);
        const before = wx.length;
        await latest.click();
        if (kind === 'wechat') {
          await eventually(() => names(wx.slice(before))).toEqual(['imagePreview']);
          expect(wx[before].args).toMatchObject({ current: srcs[0], urls: srcs });
          expect(srcs.every((src) => src.startsWith(`${base()}/apis/poi/${device.id}/images/`))).toBe(true);
          expect(await page.locator('.adm-image-viewer-content').count()).toBe(0);
        } else {
          await page.locator('.adm-image-viewer-content').first().waitFor();
          await walkShot(page, name('realtime-ibiosense-viewer'));
        }
      }

      // History: drawn, then pinched on the chart: the window it shows narrows.
      const soil = list.find((d) => d.typeId === REALTIME['zhi-shang'] && !d.slave)!;
      await page.goto(base() + `${deviceBase(soil)}/history`);
      const canvas = page.locator('[data-testid="poi-chart"] canvas').first();
      await canvas.waitFor({ timeout: 30_000 });
      const zoomWindow = page.getByTestId('mpoi-zoom-window');
      const span = async () => Number(await zoomWindow.getAttribute('data-end')) - Number(await zoomWindow.getAttribute('data-begin'));
      const full = await span();
      await walkShot(page, name('history'));
      const box = (await canvas.boundingBox())!;
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Input.synthesizePinchGesture', { x: box.x + box.width * 0.85, y: box.y + box.height / 2, scaleFactor: 3, gestureSourceType: 'touch' });
      await eventually(span).toBeLessThan(full);
      await page.getByTestId('mpoi-zoom-reset').waitFor();
      await walkShot(page, name('history-zoomed'));

      // About, then a rename on the profile.
      await page.locator('.fw-mobile-device-tabs .adm-tabs-tab').nth(2).click();
      await page.waitForURL((u) => u.pathname.endsWith('/about'));
      await page.getByTestId('mpoi-about').waitFor();
      await eventually(() => page.getByTestId('mpoi-about-service').innerText()).toMatch(/\d{4}-\d{2}-\d{2}/);
      await walkShot(page, name('about'));
      await page.getByTestId('mpoi-about-profile').click();
      await page.waitForURL((u) => u.pathname.endsWith('/about/profile'));
      await page.getByTestId('mpoi-profile').waitFor();
      await walkShot(page, name('profile'));
      const renamed = kind === 'wechat' ? '北坡墒情站' : 'North slope';
      await page.locator('[data-testid="mpoi-profile-name"] input, input[data-testid="mpoi-profile-name"]').first().fill(renamed);
      await page.getByTestId('mpoi-profile-save').click();
      await page.waitForURL((u) => u.pathname.endsWith('/about'));
      await eventually(() => page.getByTestId('mpoi-about-profile').innerText()).toContain(renamed);
      expect((await apiGet<{ name: string }>(page, `/apis/poi/${soil.id}/profile`)).name).toBe(renamed);

      // A message opened from the unread messages: it opens its device, and back returns to the
      // unread messages, through the device's sections.
      await page.goto(base() + '/apps/mobile/messages?unread=true');
      const unreadRow = page.locator('[data-testid="mobile-message-row"][data-read="false"]').first();
      await unreadRow.waitFor();
      await walkShot(page, name('messages-unread'));
      await unreadRow.click();
      await page.waitForURL(/\/apps\/mobile\/poi\/[^/]+\/\d+\/realtime\//);
      await page.locator('[data-testid="mpoi-realtime"]').waitFor({ timeout: 30_000 });
      await page.locator('.fw-mobile-device-tabs .adm-tabs-tab').nth(1).click();
      await page.waitForURL((u) => u.pathname.endsWith('/history'));
      await page.locator('.adm-nav-bar-back').click();
      await page.waitForURL((u) => u.pathname === '/apps/mobile/messages');
      expect(new URL(page.url()).search).toBe('?unread=true');
      await page.getByTestId('mobile-message-row').first().waitFor();

      // Profile, account and authorizations; a share link made on the phone (in WeChat: the
      // send-to-friend item shown with the link, hidden again when the sheet closes).
      await page.locator('.fw-mobile-tabs__bar .adm-tab-bar-item').nth(2).click();
      await page.waitForURL(/\/apps\/mobile\/profile$/);
      await walkShot(page, name('tab-profile'));
      await page.goto(base() + '/apps/mobile/account');
      await page.locator('.fw-mobile-page').first().waitFor();
      await walkShot(page, name('account'));
      await page.goto(base() + '/apps/mobile/authorization');
      await page.getByRole('button', { name: text.sharing.mobile.share }).click();
      const sheet = page.locator('.fw-m-share-sheet');
      const choice = sheet.getByTestId('share-device-choices').locator('.adm-checkbox').first();
      await choice.waitFor();
      await choice.click();
      const before = wx.length;
      await sheet.getByRole('button', { name: new RegExp(text.sharing.dialog.createLink) }).click();
      const link = (await sheet.getByTestId('share-link').innerText()).trim();
      expect(link).toMatch(/\/apps\/authoried\/grant\?credential=/);
      await walkShot(page, name('share-link'));
      if (kind === 'wechat') {
        await eventually(() => names(wx.slice(before))).toEqual(['updateAppMessageShareData', 'showMenuItems']);
        expect(wx[before].args.link).toBe(link);
        expect(wx[before + 1].args.menuList).toEqual(['menuItem:share:appMessage']);
        await sheet.locator('.adm-popup-close-icon').click();
        await eventually(() => names(wx.slice(before + 2))).toEqual(['hideMenuItems']);
        expect(wx[before + 2].args.menuList).toEqual(['menuItem:share:appMessage']);
      }

      // The grantee opens the link on a phone of the same kind and accepts it.
      const grantee = await phone(kind, lang, scheme);
      await login(grantee.page, '/apps/mobile/profile', { account: GRANTEE, base: base() });
      await grantee.page.goto(link);
      await grantee.page.waitForURL(/\/apps\/mobile\/authorization\/accept\/[^/]+$/);
      const offer = grantee.page.getByTestId('accept-offer');
      await offer.waitFor();
      await walkShot(grantee.page, name('accept-offer'));
      await offer.locator('.fw-m-accept__actions button').click();
      await grantee.page.getByTestId('accept-done').waitFor();
      await walkShot(grantee.page, name('accept-done'));
      const shared = await apiGet<{ list: ListedDevice[] }>(grantee.page, '/apis/devices?belong=shared&size=50');
      expect(shared.list.length).toBeGreaterThan(0);

      expect(errors).toEqual([]);
      expect(grantee.errors).toEqual([]);
    });
  }

  for (const lang of ['zh_CN', 'zh_TW', 'en_US'] as const) {
    test(`the tabs in ${lang}, light and dark`, async () => {
      for (const scheme of ['light', 'dark'] as const) {
        const { page } = await phone('phone', lang, scheme);
        await login(page, '/apps/mobile/devices', { account: DEMO, base: base() });
        await deviceRows(page).first().waitFor();
        await walkShot(page, `tabs-devices-${lang}-${scheme}`);
        await page.getByTestId('view-toggle').click();
        await page.getByTestId('device-map').locator('.fw-cluster').first().waitFor();
        await walkShot(page, `tabs-map-${lang}-${scheme}`);
        await page.locator('.fw-mobile-tabs__bar .adm-tab-bar-item').nth(1).click();
        await page.getByTestId('mobile-message-row').first().waitFor();
        await walkShot(page, `tabs-messages-${lang}-${scheme}`);
        await page.locator('.fw-mobile-tabs__bar .adm-tab-bar-item').nth(2).click();
        await page.waitForURL(/\/apps\/mobile\/profile$/);
        await walkShot(page, `tabs-profile-${lang}-${scheme}`);
      }
    });
  }
});
