// The stand-in for the WeChat connection (`@/features/wechat/wechat`) in every component test
// (setup.ts mocks the module with this one); the real hooks run on top of it. Test files share one
// module cache (vite.config.ts: isolate false), so there is one connection and one state for all.
// Outside WeChat unless a test says otherwise (insideWeChat); inside, a ready bridge that records
// what it is asked to do and whose camera reads `scanned` (rejects when null).
import { onTestFinished } from 'vitest';

export const wechatStub = {
  inside: false,
  state: { ready: true, location: null, share: null },
  opened: [] as unknown[],
  previewed: [] as unknown[],
  scanned: null as string | null,
  scans: 0,
};

const outside = () => ({ inside: false, opened: [], previewed: [], scanned: null, scans: 0 });

/** Inside WeChat until the test finishes, with nothing recorded yet; outside and empty again after. */
export function insideWeChat(scanned: string | null = null) {
  Object.assign(wechatStub, outside(), { inside: true, scanned });
  onTestFinished(() => void Object.assign(wechatStub, outside()));
}

export function inWeChat(): boolean {
  return wechatStub.inside;
}

export function weChatBridge() {
  if (!wechatStub.inside) return null;
  return {
    getState: () => wechatStub.state,
    subscribe: () => () => undefined,
    openLocation: (target: unknown) => wechatStub.opened.push(target) > 0,
    previewImage: (pictures: unknown) => wechatStub.previewed.push(pictures) > 0,
    scanQRCode: () => {
      wechatStub.scans++;
      return wechatStub.scanned === null ? Promise.reject(new Error('scanQRCode:fail')) : Promise.resolve(wechatStub.scanned);
    },
  };
}
