/**
 * The path to go to after login: the requested one when it stays on this site, else the fallback.
 * Refuses absolute URLs, protocol-relative ones and the login page itself.
 */
export function safeRedirect(target: string | null | undefined, fallback: string): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  let url: URL;
  try {
    url = new URL(target, window.location.origin);
  } catch {
    return fallback;
  }
  if (url.origin !== window.location.origin || url.pathname === '/login') return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
