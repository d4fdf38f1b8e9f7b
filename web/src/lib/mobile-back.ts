import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { mobileDevicePath } from './detail-path';

/** Router state of a phone device screen: the tab, with its filters, the device was opened from. */
export interface OpenedFrom {
  from: string;
}

/**
 * Where a device screen's back arrow leads: the phone tab it was opened from (devices, messages,
 * the map), else `fallback`. Only a phone tab address is taken from the state.
 */
export function backTarget(state: unknown, fallback: string): string {
  const from = (state as Partial<OpenedFrom> | null)?.from;
  if (typeof from !== 'string' || !from.startsWith('/apps/mobile/') || from.startsWith('/apps/mobile/poi/')) return fallback;
  return from;
}

/** Opens a device's phone screen, remembering the address it was opened from for the back arrow. */
export function useOpenMobileDevice() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  return useCallback(
    (device: { hashId: string; id: number | string }) => {
      const state: OpenedFrom = { from: pathname + search };
      void navigate(mobileDevicePath(device), { state });
    },
    [navigate, pathname, search],
  );
}
