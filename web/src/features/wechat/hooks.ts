import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { wgs84ToGcj02 } from '@/lib/geo';
import type { BridgeState, LocationTarget, ShareData } from './bridge';
import { weChatBridge } from './wechat';

const OUTSIDE: BridgeState = { ready: false, location: null, share: null };
const noSubscription = () => () => undefined;

function useBridgeState(): BridgeState {
  const bridge = weChatBridge();
  return useSyncExternalStore(bridge?.subscribe ?? noSubscription, bridge?.getState ?? (() => OUTSIDE));
}

/** A place to navigate to, as a device reports it (WGS-84). */
export interface NavigationTarget {
  lng: number;
  lat: number;
  name: string;
  address?: string;
}

/**
 * Whether the page is in WeChat, and whether its JS interfaces can be called yet. Each call answers
 * false when WeChat cannot take it (not in WeChat, not configured yet): the caller then does what
 * any browser does.
 */
export function useWeChat() {
  const bridge = weChatBridge();
  const { ready } = useBridgeState();
  const openLocation = useCallback((target: LocationTarget) => bridge?.openLocation(target) ?? false, [bridge]);
  const previewImage = useCallback(
    (pictures: { current: string; urls: string[] }) => bridge?.previewImage(pictures) ?? false,
    [bridge],
  );
  // Devices report WGS-84 (GPS); WeChat's map, like every Chinese map, draws GCJ-02.
  const navigateTo = useCallback(
    ({ lng, lat, name, address }: NavigationTarget) => {
      const [longitude, latitude] = wgs84ToGcj02(lng, lat);
      return bridge?.openLocation({ latitude, longitude, name, address }) ?? false;
    },
    [bridge],
  );
  return { inWeChat: bridge !== null, ready, openLocation, previewImage, navigateTo };
}

/** Where WeChat says the phone is, once the user allowed it (for the map and "near me"). */
export function useWeChatLocation() {
  return useBridgeState().location;
}

/** WeChat's QR scanner (QR codes only), e.g. to bind a device by its label; unavailable outside WeChat. */
export function useScanQRCode() {
  const bridge = weChatBridge();
  const { ready } = useBridgeState();
  const scan = useCallback(() => (bridge ? bridge.scanQRCode() : Promise.reject(new Error('not in WeChat'))), [bridge]);
  return { available: bridge !== null && ready, scan };
}

/**
 * Shows "send to a friend" with this data while the calling screen is shown and the data is not
 * null; hides it again after.
 */
export function useWeChatShare(share: ShareData | null) {
  const bridge = weChatBridge();
  const { title, desc, link, imgUrl } = share ?? { title: '', desc: '', link: '', imgUrl: '' };
  const enabled = share !== null;
  useEffect(() => {
    if (!bridge || !enabled) return;
    bridge.enableShare({ title, desc, link, imgUrl });
    return () => bridge.disableShare();
  }, [bridge, enabled, title, desc, link, imgUrl]);
}
