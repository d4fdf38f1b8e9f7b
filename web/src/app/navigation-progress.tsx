import NProgress from 'nprogress';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigation } from 'react-router';

// The bar is decoration (the page's own loading states speak); NProgress's template gives it
// role="bar", which is no ARIA role.
NProgress.configure({
  showSpinner: false,
  trickleSpeed: 120,
  minimum: 0.15,
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
  barSelector: '.bar',
});

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
