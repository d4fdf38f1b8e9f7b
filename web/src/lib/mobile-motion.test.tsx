import { act, render } from '@testing-library/react';
import { Popup } from 'antd-mobile';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { useMobileMotion } from './mobile-motion';

function Motion() {
  useMobileMotion();
  return null;
}

function systemMatches(query: string) {
  const original = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((q: string) => ({ ...original(q), matches: q === query }));
}

/** Where a just-opened bottom sheet stands: its transform right after opening. */
async function sheetTransform(): Promise<string> {
  const sheet = (visible: boolean) => (
    <AppProvider mobile>
      <Motion />
      <Popup visible={visible} position="bottom" forceRender>
        sheet
      </Popup>
    </AppProvider>
  );
  const view = render(sheet(false));
  await act(async () => {});
  view.rerender(sheet(true));
  await act(async () => {});
  const transform = (document.querySelector('.adm-popup-body') as HTMLElement).style.transform;
  view.unmount();
  return transform;
}

afterEach(() => vi.restoreAllMocks());

describe('useMobileMotion', () => {
  // antd-mobile animates with react-spring; reduced motion makes a sheet stand in place at once.
  it("stops antd-mobile's animations when the system asks for reduced motion", async () => {
    systemMatches('(prefers-reduced-motion: reduce)');
    expect(await sheetTransform()).toBe('translate(0, 0%)');
  });

  it('keeps them otherwise: the sheet starts below the screen and slides up', async () => {
    expect(await sheetTransform()).not.toBe('translate(0, 0%)');
  });
});
