import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { antdTheme, ThemeModeProvider, useThemeMode } from './theme';

/** Makes the system answer one media query with true. */
function systemMatches(query: string) {
  const original = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((q: string) => ({ ...original(q), matches: q === query }));
}

const wrapper = ({ children }: { children: ReactNode }) => <ThemeModeProvider>{children}</ThemeModeProvider>;

describe('theme', () => {
  it('turns antd motion off only when reduced motion is asked for', () => {
    expect(antdTheme('light').token?.motion).toBe(true);
    expect(antdTheme('dark', true).token?.motion).toBe(false);
  });

  it('follows the system setting for reduced motion', () => {
    expect(renderHook(() => useThemeMode(), { wrapper }).result.current.reducedMotion).toBe(false);
    systemMatches('(prefers-reduced-motion: reduce)');
    const { result } = renderHook(() => useThemeMode(), { wrapper });
    expect(result.current.reducedMotion).toBe(true);
    expect(result.current.mode).toBe('light');
  });

  it('follows a dark system when nothing is stored', () => {
    systemMatches('(prefers-color-scheme: dark)');
    const { result } = renderHook(() => useThemeMode(), { wrapper });
    expect(result.current.mode).toBe('dark');
    expect(result.current.reducedMotion).toBe(false);
  });
});
