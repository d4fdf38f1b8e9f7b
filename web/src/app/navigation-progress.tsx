import NProgress from 'nprogress';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigation } from 'react-router';

NProgress.configure({ showSpinner: false, trickleSpeed: 120, minimum: 0.15 });

/** How long the bar stays for a navigation that needed nothing to load. */
const SETTLE_MS = 200;

/** Runs the top progress bar while a route loads and briefly on every change of location. */
export function NavigationProgress() {
  const navigation = useNavigation();
  const location = useLocation();
  const shownKey = useRef(location.key);

  useEffect(() => {
    if (navigation.state !== 'idle') {
      NProgress.start();
      return;
    }
    if (shownKey.current === location.key) {
      NProgress.done();
      return;
    }
    shownKey.current = location.key;
    NProgress.start();
    const timer = window.setTimeout(() => NProgress.done(), SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [navigation.state, location.key]);

  return null;
}
