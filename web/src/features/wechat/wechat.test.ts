import { afterEach, describe, expect, it, vi } from 'vitest';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const WECHAT = `${IPHONE} MicroMessenger/8.0.47(0x18002f2f) NetType/WIFI Language/zh_CN`;

async function freshModule(userAgent: string) {
  vi.resetModules();
  vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(userAgent);
  // The real module: the test set-up replaces it with a stand-in everywhere else.
  return vi.importActual<typeof import('./wechat')>('./wechat');
}

afterEach(() => vi.resetModules());

describe('weChatBridge', () => {
  it('is absent outside WeChat, so the SDK is never loaded', async () => {
    const { inWeChat, weChatBridge } = await freshModule(IPHONE);
    expect(inWeChat()).toBe(false);
    expect(weChatBridge()).toBeNull();
  });

  it('is one bridge for the whole app inside WeChat', async () => {
    const { inWeChat, weChatBridge } = await freshModule(WECHAT);
    expect(inWeChat()).toBe(true);
    const bridge = weChatBridge();
    expect(bridge).not.toBeNull();
    expect(weChatBridge()).toBe(bridge);
    expect(bridge!.getState()).toEqual({ ready: false, location: null, share: null });
  });
});
