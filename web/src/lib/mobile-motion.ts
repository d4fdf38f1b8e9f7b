import { reduceMotion, restoreMotion } from 'antd-mobile';
import { useEffect } from 'react';
import { useThemeMode } from './theme';

/**
 * antd-mobile's springs (popups, pull to refresh, swipe actions) follow the reduced-motion
 * preference as antd's animations do. Called by the phone layouts, which load antd-mobile.
 */
export function useMobileMotion(): void {
  const { reducedMotion } = useThemeMode();
  useEffect(() => {
    if (reducedMotion) reduceMotion();
    else restoreMotion();
  }, [reducedMotion]);
}
