import { api } from '@/lib/api-client';
import { isInAppBrowser } from '@/lib/client-env';
import { createWeChatBridge, isIOS, type JssdkSignature, type WeChatBridge } from './bridge';

/** The page runs in WeChat's in-app browser. */
export function inWeChat(): boolean {
  return typeof navigator !== 'undefined' && isInAppBrowser(navigator.userAgent);
}

/** GET /apis/wechat/jssdk?url=: the wx.config signature of a page address (its fragment removed). */
export function getJssdkSignature(url: string): Promise<JssdkSignature> {
  return api.get<JssdkSignature>('/wechat/jssdk', { params: { url } });
}

// The address the page was entered with, taken as the app's code first runs: iOS WeChat checks
// signatures against it.
const entryUrl = typeof window === 'undefined' ? '' : window.location.href;

let bridge: WeChatBridge | null = null;

/** The app's one WeChat bridge, or null outside WeChat (other browsers never load the SDK). */
export function weChatBridge(): WeChatBridge | null {
  if (!inWeChat()) return null;
  bridge ??= createWeChatBridge({
    // A separate chunk, downloaded only here.
    loadSdk: () => import('weixin-js-sdk').then((module) => module.default),
    sign: getJssdkSignature,
    ios: isIOS(navigator.userAgent),
    entryUrl,
  });
  return bridge;
}
