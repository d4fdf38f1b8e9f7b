/** The browser the app runs in (user agent and width): it decides between the phone app and the desktop console. */

/** Below this body width a phone or tablet gets the mobile app. */
export const MOBILE_MAX_WIDTH = 768;

const MOBILE_OR_TABLET = /android|iphone|ipad|ipod|mobile|tablet|blackberry|bb10|iemobile|opera mini|webos|harmonyos|kindle|silk|playbook/i;
const IN_APP_BROWSER = /micromessenger/i;

export function isMobileUserAgent(userAgent: string): boolean {
  return MOBILE_OR_TABLET.test(userAgent);
}

/** The messaging app's in-app browser always gets the mobile app, whatever its width. */
export function isInAppBrowser(userAgent: string): boolean {
  return IN_APP_BROWSER.test(userAgent);
}

export function isMobileMode({ width, userAgent }: { width: number; userAgent: string }): boolean {
  return (width < MOBILE_MAX_WIDTH && isMobileUserAgent(userAgent)) || isInAppBrowser(userAgent);
}

export function detectMobileMode(): boolean {
  const width = document.body?.clientWidth || window.innerWidth;
  return isMobileMode({ width, userAgent: window.navigator.userAgent });
}
