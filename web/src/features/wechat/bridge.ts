import type wxSdk from 'weixin-js-sdk';

/** The part of the official JS-SDK (weixin-js-sdk) the app calls. */
export type Wx = Pick<
  typeof wxSdk,
  | 'config'
  | 'ready'
  | 'error'
  | 'hideMenuItems'
  | 'showMenuItems'
  | 'getLocation'
  | 'updateAppMessageShareData'
  | 'scanQRCode'
  | 'openLocation'
  | 'previewImage'
>;

type MenuItem = Parameters<Wx['hideMenuItems']>[0]['menuList'][number];

/** The JS interfaces wx.config asks for, exactly SPEC §9's list. */
export const JS_API_LIST = [
  'hideOptionMenu',
  'showMenuItems',
  'closeWindow',
  'chooseImage',
  'previewImage',
  'uploadImage',
  'updateAppMessageShareData',
  'hideMenuItems',
  'getLocation',
  'openLocation',
  'scanQRCode',
] as const satisfies Parameters<Wx['config']>[0]['jsApiList'];

/** The menu item that sends the page to a friend; shown only while a page offers something to share. */
export const SHARE_MENU_ITEM = 'menuItem:share:appMessage' satisfies MenuItem;

/**
 * Hidden once the page is configured: every spreading item (shares, favourite) and the protected
 * items a console has no use for. Kept: the basic items (refresh, font, report, which cannot be
 * hidden anyway), copying the link, and opening the page in a real browser (downloads, exports).
 */
export const HIDDEN_MENU_ITEMS = [
  SHARE_MENU_ITEM,
  'menuItem:share:timeline',
  'menuItem:share:qq',
  'menuItem:share:weiboApp',
  'menuItem:favorite',
  'menuItem:share:facebook',
  'menuItem:share:QZone',
  'menuItem:editTag',
  'menuItem:delete',
  'menuItem:originPage',
  'menuItem:readMode',
  'menuItem:share:email',
  'menuItem:share:brand',
] as const satisfies readonly MenuItem[];

/** GET /apis/wechat/jssdk?url=: what wx.config needs for one page address. */
export interface JssdkSignature {
  appId: string;
  timestamp: number;
  nonceStr: string;
  signature: string;
}

/** Where the phone is (WGS-84, as GPS gives it). */
export interface WeChatLocation {
  latitude: number;
  longitude: number;
  accuracy: number;
}

/** What "send to a friend" sends (SPEC §3 share data). */
export interface ShareData {
  title: string;
  desc: string;
  link: string;
  imgUrl: string;
}

export interface LocationTarget {
  latitude: number;
  longitude: number;
  name: string;
  address?: string;
  /** Map zoom, 1-28. */
  scale?: number;
}

export interface BridgeState {
  /** wx.config was accepted (wx.ready fired). */
  ready: boolean;
  location: WeChatLocation | null;
  /** The share item is shown, with this data. */
  share: ShareData | null;
}

export interface BridgeOptions {
  /** Loads the SDK; the app imports weixin-js-sdk here, so only WeChat downloads it. */
  loadSdk: () => Promise<Wx>;
  /** Asks the server to sign a page address. */
  sign: (url: string) => Promise<JssdkSignature>;
  /**
   * iOS WeChat checks the signature against the address the page was entered with, whatever the
   * SPA did to the address since; Android checks the current address.
   */
  ios: boolean;
  /** The address the page was entered with. */
  entryUrl: string;
  /** Failures are only logged (SPEC §8); console.warn unless told. */
  warn?: (message: string, detail?: unknown) => void;
}

/** A page address as WeChat signs it: without its fragment. */
export function signedUrl(href: string): string {
  const hash = href.indexOf('#');
  return hash === -1 ? href : href.slice(0, hash);
}

export function isIOS(userAgent: string): boolean {
  return /iphone|ipad|ipod/i.test(userAgent);
}

export type WeChatBridge = ReturnType<typeof createWeChatBridge>;

/**
 * The app's side of WeChat's JS bridge: signs the page, configures the SDK with SPEC §9's
 * interfaces, hides the menu items and asks for the location once ready, and offers sharing, QR
 * scanning, navigation and picture preview. Every failure is logged and nothing else: outside a
 * working WeChat the app goes on as in any browser.
 */
export function createWeChatBridge({ loadSdk, sign, ios, entryUrl, warn = (m, d) => console.warn(m, d) }: BridgeOptions) {
  let state: BridgeState = { ready: false, location: null, share: null };
  const listeners = new Set<() => void>();
  let sdk: Promise<Wx | null> | null = null;
  let wx: Wx | null = null;
  let lastSigned: string | null = null;
  let readyHooked = false;
  // Counts configure calls: one overtaken by a later navigation while it loaded or signed stops.
  let generation = 0;

  const set = (next: Partial<BridgeState>) => {
    state = { ...state, ...next };
    listeners.forEach((listener) => listener());
  };

  const load = () =>
    (sdk ??= loadSdk().then(
      (loaded) => (wx = loaded),
      (error: unknown) => {
        warn('WeChat JS-SDK did not load', error);
        return null;
      },
    ));

  const applyShare = (w: Wx, share: ShareData) => {
    w.updateAppMessageShareData({
      ...share,
      success: () => undefined,
      fail: (res: { errMsg?: string }) => warn('WeChat share data refused', res?.errMsg),
    });
    w.showMenuItems({ menuList: [SHARE_MENU_ITEM] });
  };

  const onReady = (w: Wx) => {
    set({ ready: true });
    w.hideMenuItems({ menuList: [...HIDDEN_MENU_ITEMS] });
    w.getLocation({
      type: 'wgs84',
      success: ({ latitude, longitude, accuracy }) => set({ location: { latitude, longitude, accuracy } }),
      fail: (res: { errMsg?: string }) => warn('WeChat location refused', res?.errMsg),
      cancel: () => undefined,
    });
    if (state.share) applyShare(w, state.share);
  };

  /**
   * Signs the address and configures the SDK; a second call with the same address does nothing,
   * and a call overtaken by a newer one (the app redirected while the SDK loaded or the server
   * signed) leaves wx.config to it: WeChat checks the signature against the address it is on.
   */
  const configure = async (href: string) => {
    const url = signedUrl(href);
    if (url === lastSigned) return;
    lastSigned = url;
    const mine = ++generation;
    const w = await load();
    if (!w || mine !== generation) return;
    let signature: JssdkSignature;
    try {
      signature = await sign(url);
    } catch (error) {
      if (mine === generation) lastSigned = null; // the next navigation tries again
      warn('WeChat JS-SDK signature failed', error);
      return;
    }
    if (mine !== generation) return;
    const { appId, timestamp, nonceStr } = signature;
    w.config({ debug: false, appId, timestamp, nonceStr, signature: signature.signature, jsApiList: [...JS_API_LIST] });
    if (!readyHooked) {
      readyHooked = true;
      w.error((res) => warn('WeChat wx.config failed', res?.errMsg));
      w.ready(() => onReady(w));
    }
  };

  return {
    getState: (): BridgeState => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    /** Configures the page it was entered on. */
    start: () => configure(entryUrl),

    /**
     * The SPA moved to another address. Android signs the current address, so it is signed again;
     * iOS keeps checking the entry address, already signed.
     */
    navigated: (href: string) => (ios ? configure(entryUrl) : configure(href)),

    /** Lets "send to a friend" send this page, with this title, description, link and icon. */
    enableShare(share: ShareData) {
      set({ share });
      if (state.ready && wx) applyShare(wx, share);
    },

    /** Hides "send to a friend" again. */
    disableShare() {
      if (!state.share) return;
      set({ share: null });
      if (state.ready && wx) wx.hideMenuItems({ menuList: [SHARE_MENU_ITEM] });
    },

    /** Scans a QR code (QR codes only) and answers what it says. */
    scanQRCode(): Promise<string> {
      return new Promise((resolve, reject) => {
        if (!state.ready || !wx) {
          reject(new Error('WeChat is not ready'));
          return;
        }
        wx.scanQRCode({
          needResult: 1,
          scanType: ['qrCode'],
          success: (res) => resolve(res.resultStr),
          fail: (res: { errMsg?: string }) => reject(new Error(res?.errMsg ?? 'scanQRCode:fail')),
          cancel: () => reject(new Error('scanQRCode:cancel')),
        });
      });
    },

    /** Opens WeChat's own map on a place; false when WeChat is not ready (use a web map link then). */
    openLocation({ latitude, longitude, name, address = '', scale = 16 }: LocationTarget): boolean {
      if (!state.ready || !wx) return false;
      wx.openLocation({ latitude, longitude, name, address, scale, infoUrl: '' });
      return true;
    },

    /** Shows pictures full screen with WeChat's viewer; false when WeChat is not ready. */
    previewImage({ current, urls }: { current: string; urls: string[] }): boolean {
      if (!state.ready || !wx) return false;
      // WeChat's viewer needs full addresses.
      const absolute = (url: string) => new URL(url, window.location.href).href;
      wx.previewImage({ current: absolute(current), urls: urls.map(absolute) });
      return true;
    },
  };
}
