import { render } from '@testing-library/react';
import { reduceMotion, restoreMotion } from 'antd-mobile';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from './provider';

vi.mock('antd-mobile', async (importOriginal) => ({
  ...(await importOriginal<typeof import('antd-mobile')>()),
  reduceMotion: vi.fn(),
  restoreMotion: vi.fn(),
}));

function systemMatches(query: string) {
  const original = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((q: string) => ({ ...original(q), matches: q === query }));
}

afterEach(() => vi.restoreAllMocks());

describe('AppProvider', () => {
  it("stops antd-mobile's animations when the system asks for reduced motion", () => {
    systemMatches('(prefers-reduced-motion: reduce)');
    render(<AppProvider mobile>x</AppProvider>);
    expect(reduceMotion).toHaveBeenCalled();
    expect(restoreMotion).not.toHaveBeenCalled();
  });

  it('keeps them otherwise', () => {
    vi.mocked(reduceMotion).mockClear();
    render(<AppProvider mobile>x</AppProvider>);
    expect(restoreMotion).toHaveBeenCalled();
    expect(reduceMotion).not.toHaveBeenCalled();
  });
});
