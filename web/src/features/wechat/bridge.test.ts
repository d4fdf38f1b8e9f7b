import { describe, expect, it, vi, type Mock } from 'vitest';
import { createWeChatBridge, HIDDEN_MENU_ITEMS, JS_API_LIST, SHARE_MENU_ITEM, signedUrl, type JssdkSignature, type Wx } from './bridge';

type Call = [string, Record<string, unknown>];

/** A stand-in for the SDK: records every call; wx.ready fires when the test says WeChat accepted the config. */
function fakeWx() {
  const calls: Call[] = [];
  let readyFn: (() => void) | null = null;
  let errorFn: ((res: { errMsg: string }) => void) | null = null;
  const record =
    (name: string) =>
    (args: Record<string, unknown> = {}) =>
      calls.push([name, args]);
  const wx = {
    config: record('config'),
    ready: (fn: () => void) => (readyFn = fn),
    error: (fn: (res: { errMsg: string }) => void) => (errorFn = fn),
    hideMenuItems: record('hideMenuItems'),
    showMenuItems: record('showMenuItems'),
    getLocation: record('getLocation'),
    updateAppMessageShareData: record('updateAppMessageShareData'),
    scanQRCode: record('scanQRCode'),
    openLocation: record('openLocation'),
    previewImage: record('previewImage'),
  } as unknown as Wx;
  return {
    wx,
    calls,
    names: () => calls.map(([name]) => name),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the recorded arguments hold the callbacks the test fires
    last: (name: string) => calls.filter(([n]) => n === name).at(-1)?.[1] as Record<string, any> | undefined,
    fireReady: () => readyFn?.(),
    fireError: (errMsg: string) => errorFn?.({ errMsg }),
  };
}

const SIGNATURE: JssdkSignature = { appId: 'wxapp', timestamp: 1700000000, nonceStr: 'abc', signature: 'f00' };

function setup({
  ios = false,
  entryUrl = 'https://farm.test/apps/mobile/devices#top',
  sign = vi.fn(async (_url: string) => SIGNATURE),
}: { ios?: boolean; entryUrl?: string; sign?: Mock<(url: string) => Promise<JssdkSignature>> } = {}) {
  const fake = fakeWx();
  const loadSdk = vi.fn(async () => fake.wx);
  const warn = vi.fn();
  const bridge = createWeChatBridge({ loadSdk, sign, ios, entryUrl, warn });
  return { fake, loadSdk, sign, warn, bridge };
}

describe('signedUrl', () => {
  it('drops the fragment and keeps the query', () => {
    expect(signedUrl('https://a.test/p?x=1#frag')).toBe('https://a.test/p?x=1');
    expect(signedUrl('https://a.test/p')).toBe('https://a.test/p');
  });
});

describe('WeChat bridge', () => {
  it('configures with the signature of the address without its fragment and exactly SPEC §9 jsApiList', async () => {
    const { fake, sign, bridge } = setup();
    await bridge.start();
    expect(sign).toHaveBeenCalledWith('https://farm.test/apps/mobile/devices');
    expect(fake.last('config')).toEqual({ debug: false, ...SIGNATURE, jsApiList: [...JS_API_LIST] });
    expect(JS_API_LIST).toEqual([
      'hideOptionMenu', 'showMenuItems', 'closeWindow', 'chooseImage', 'previewImage', 'uploadImage',
      'updateAppMessageShareData', 'hideMenuItems', 'getLocation', 'openLocation', 'scanQRCode',
    ]);
  });

  it('on ready hides the menu items, then asks for the location (wgs84) and keeps it', async () => {
    const { fake, bridge } = setup();
    await bridge.start();
    expect(fake.names()).toEqual(['config']);
    fake.fireReady();
    expect(fake.names()).toEqual(['config', 'hideMenuItems', 'getLocation']);
    expect(fake.last('hideMenuItems')!.menuList).toEqual([...HIDDEN_MENU_ITEMS]);
    expect(HIDDEN_MENU_ITEMS).toContain(SHARE_MENU_ITEM);
    expect(HIDDEN_MENU_ITEMS).not.toContain('menuItem:copyUrl');
    const getLocation = fake.last('getLocation')!;
    expect(getLocation.type).toBe('wgs84');
    expect(bridge.getState().ready).toBe(true);
    getLocation.success({ latitude: 31.2, longitude: 121.5, accuracy: 30, speed: 0 });
    expect(bridge.getState().location).toEqual({ latitude: 31.2, longitude: 121.5, accuracy: 30 });
  });

  it('only warns when the signature fetch fails, and signs again on the next navigation', async () => {
    const sign = vi.fn<(url: string) => Promise<JssdkSignature>>().mockRejectedValueOnce(new Error('503')).mockResolvedValue(SIGNATURE);
    const error = vi.spyOn(console, 'error');
    const { fake, warn, bridge } = setup({ sign });
    await bridge.start();
    expect(fake.names()).toEqual([]);
    expect(warn).toHaveBeenCalledWith('WeChat JS-SDK signature failed', expect.any(Error));
    expect(error).not.toHaveBeenCalled();
    await bridge.navigated('https://farm.test/apps/mobile/devices');
    expect(fake.names()).toEqual(['config']);
  });

  it('only warns on wx.error and when the SDK does not load', async () => {
    const { fake, warn, bridge } = setup();
    await bridge.start();
    fake.fireError('config:invalid signature');
    expect(warn).toHaveBeenCalledWith('WeChat wx.config failed', 'config:invalid signature');

    const warnLoad = vi.fn();
    const broken = createWeChatBridge({
      loadSdk: () => Promise.reject(new Error('offline')),
      sign: vi.fn(async () => SIGNATURE),
      ios: false,
      entryUrl: 'https://farm.test/',
      warn: warnLoad,
    });
    await broken.start();
    expect(warnLoad).toHaveBeenCalledWith('WeChat JS-SDK did not load', expect.any(Error));
    expect(broken.openLocation({ latitude: 1, longitude: 2, name: 'x' })).toBe(false);
  });

  it('on Android signs each new address the app moves to, once', async () => {
    const { fake, sign, bridge } = setup();
    await bridge.navigated('https://farm.test/apps/mobile/devices');
    await bridge.navigated('https://farm.test/apps/mobile/messages#x');
    await bridge.navigated('https://farm.test/apps/mobile/messages');
    expect(sign.mock.calls.map(([url]) => url)).toEqual(['https://farm.test/apps/mobile/devices', 'https://farm.test/apps/mobile/messages']);
    expect(fake.names()).toEqual(['config', 'config']);
  });

  it('on Android configures only the latest address when the app moves on while the SDK loads or the server signs', async () => {
    const pending: { url: string; resolve: (s: JssdkSignature) => void }[] = [];
    const sign = vi.fn((url: string) => new Promise<JssdkSignature>((resolve) => pending.push({ url, resolve })));
    const { fake, bridge } = setup({ sign });
    // '/' redirects to the login page, which the user leaves as soon as the form is sent.
    const first = bridge.navigated('https://farm.test/');
    const second = bridge.navigated('https://farm.test/login?redirect=%2F');
    await vi.waitFor(() => expect(pending.map((p) => p.url)).toEqual(['https://farm.test/login?redirect=%2F']));
    const third = bridge.navigated('https://farm.test/apps/mobile/devices');
    await vi.waitFor(() => expect(pending).toHaveLength(2));
    pending.forEach((p) => p.resolve({ ...SIGNATURE, signature: p.url }));
    await Promise.all([first, second, third]);
    expect(fake.names()).toEqual(['config']);
    expect(fake.last('config')!.signature).toBe('https://farm.test/apps/mobile/devices');
    fake.fireReady();
    expect(fake.names()).toEqual(['config', 'hideMenuItems', 'getLocation']);
  });

  it('on iOS keeps the signature of the entry address', async () => {
    const { fake, sign, bridge } = setup({ ios: true, entryUrl: 'https://farm.test/login?redirect=%2F' });
    await bridge.navigated('https://farm.test/apps/mobile/devices');
    await bridge.navigated('https://farm.test/apps/mobile/messages');
    expect(sign.mock.calls.map(([url]) => url)).toEqual(['https://farm.test/login?redirect=%2F']);
    expect(fake.names()).toEqual(['config']);
  });

  it('sharing shows the send-to-friend item with the data, and hiding it hides the item', async () => {
    const { fake, bridge } = setup();
    await bridge.start();
    fake.fireReady();
    const share = { title: 'Devices for you', desc: '2 devices', link: 'https://farm.test/apps/authoried/grant?credential=c1', imgUrl: 'https://farm.test/icon.png' };
    bridge.enableShare(share);
    expect(fake.names().slice(3)).toEqual(['updateAppMessageShareData', 'showMenuItems']);
    expect(fake.last('updateAppMessageShareData')).toMatchObject(share);
    expect(fake.last('showMenuItems')!.menuList).toEqual([SHARE_MENU_ITEM]);
    expect(bridge.getState().share).toEqual(share);
    bridge.disableShare();
    expect(fake.names().slice(5)).toEqual(['hideMenuItems']);
    expect(fake.last('hideMenuItems')!.menuList).toEqual([SHARE_MENU_ITEM]);
    bridge.disableShare();
    expect(fake.names()).toHaveLength(6);
  });

  it('sharing asked for before ready is applied once ready, after the menu is hidden', async () => {
    const { fake, bridge } = setup();
    await bridge.start();
    bridge.enableShare({ title: 't', desc: 'd', link: 'https://farm.test/x', imgUrl: 'https://farm.test/i.png' });
    expect(fake.names()).toEqual(['config']);
    fake.fireReady();
    expect(fake.names()).toEqual(['config', 'hideMenuItems', 'getLocation', 'updateAppMessageShareData', 'showMenuItems']);
  });

  it('scans QR codes only and answers the result; fails when not ready or cancelled', async () => {
    const { fake, bridge } = setup();
    await expect(bridge.scanQRCode()).rejects.toThrow('not ready');
    await bridge.start();
    fake.fireReady();
    const scanned = bridge.scanQRCode();
    const args = fake.last('scanQRCode')!;
    expect(args).toMatchObject({ needResult: 1, scanType: ['qrCode'] });
    args.success({ resultStr: 'FW-SN-12345' });
    await expect(scanned).resolves.toBe('FW-SN-12345');
    const cancelled = bridge.scanQRCode();
    fake.last('scanQRCode')!.cancel();
    await expect(cancelled).rejects.toThrow('cancel');
  });

  it('opens a place in WeChat’s map and previews pictures with full addresses once ready', async () => {
    const { fake, bridge } = setup();
    expect(bridge.openLocation({ latitude: 30, longitude: 120, name: 'Field 3' })).toBe(false);
    await bridge.start();
    fake.fireReady();
    expect(bridge.openLocation({ latitude: 30, longitude: 120, name: 'Field 3', address: 'North plot', scale: 15 })).toBe(true);
    expect(fake.last('openLocation')).toEqual({ latitude: 30, longitude: 120, name: 'Field 3', address: 'North plot', scale: 15, infoUrl: '' });
    expect(bridge.previewImage({ current: '/apis/pic/1.jpg', urls: ['/apis/pic/1.jpg', 'https://cdn.test/2.jpg'] })).toBe(true);
    expect(fake.last('previewImage')).toEqual({
      current: `${window.location.origin}/apis/pic/1.jpg`,
      urls: [`${window.location.origin}/apis/pic/1.jpg`, 'https://cdn.test/2.jpg'],
    });
  });
});
