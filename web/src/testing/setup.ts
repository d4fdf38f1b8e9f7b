import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { Modal } from 'antd';
import { Dialog, Toast } from 'antd-mobile';
import { afterEach, vi } from 'vitest';
import { setFarmZone } from '@/lib/farm-time';
import { changeLanguage, LANGUAGES, loadFeatureTexts, loadLanguage, startI18n } from '@/lib/i18n';
import { installMobileRender } from '@/lib/mobile-render';

/** Answers width media queries against jsdom's window (1024 px wide), anything else with false. */
function matchesQuery(query: string): boolean {
  const min = /min-width:\s*(\d+)px/.exec(query);
  const max = /max-width:\s*(\d+)px/.exec(query);
  if (!min && !max) return false;
  return (!min || window.innerWidth >= Number(min[1])) && (!max || window.innerWidth <= Number(max[1]));
}

// jsdom lacks these browser APIs; antd and antd-mobile query them while rendering.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: matchesQuery(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

// Rendering the whole antd console in jsdom can take several seconds on a busy machine (make test
// runs these beside the Go tests): a cap on waiting, not a speed assertion.
configure({ asyncUtilTimeout: 30_000 });

// The WeChat connection is the stand-in of wechat-stub.ts in every test file (outside WeChat unless
// a test calls insideWeChat), so the files sharing a module cache see one connection, whatever
// their order. wechat.test.ts tests the real module through vi.importActual.
vi.mock('@/features/wechat/wechat', () => import('@/testing/wechat-stub'));

installMobileRender();
await startI18n('zh_CN');
await loadFeatureTexts();
await Promise.all(LANGUAGES.map(loadLanguage));

// Unmount first, so that resetting the language re-renders nothing.
afterEach(async () => {
  cleanup();
  // Dialogs and toasts opened imperatively (a fatal error's dialog, a notice) live outside the
  // rendered tree: gone too, so the next test (of this file or another) starts with an empty page.
  Modal.destroyAll();
  Dialog.clear();
  Toast.clear();
  // Closing animates, and jsdom may never finish it: their containers go now.
  for (const node of Array.from(document.body.children)) {
    if (node.querySelector('[role="dialog"], .adm-toast-mask, .ant-message, .ant-notification')) node.remove();
  }
  vi.unstubAllGlobals();
  setFarmZone(undefined);
  await changeLanguage('zh_CN');
  window.localStorage.clear();
});
