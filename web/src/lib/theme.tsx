import { theme as antdThemes, type ThemeConfig } from 'antd';
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';

export type ThemeMode = 'light' | 'dark';

export const PRIMARY_COLOR = '#3961FF';
export const BORDER_RADIUS = 4;

const STORAGE_KEY = 'theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function isThemeMode(value: unknown): value is ThemeMode {
  return value === 'light' || value === 'dark';
}

export function readStoredTheme(): ThemeMode | null {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    return isThemeMode(stored) ? stored : null;
  } catch {
    return null;
  }
}

export function systemTheme(): ThemeMode {
  return window.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light';
}

/** Marks <html> so antd-mobile, global CSS and native controls all follow the chosen mode. */
export function applyThemeToDocument(mode: ThemeMode) {
  const root = document.documentElement;
  root.setAttribute('data-theme', mode);
  root.setAttribute('data-prefers-color-scheme', mode);
  root.style.colorScheme = mode;
}

/** antd's theme for a mode; with reduced motion its popups, drawers and messages appear without animating. */
export function antdTheme(mode: ThemeMode, reducedMotion = false): ThemeConfig {
  return {
    algorithm: mode === 'dark' ? antdThemes.darkAlgorithm : antdThemes.defaultAlgorithm,
    token: { colorPrimary: PRIMARY_COLOR, borderRadius: BORDER_RADIUS, motion: !reducedMotion },
  };
}

/** Follows the system's answer to a media query (dark scheme, reduced motion) as it changes. */
function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia?.(query).matches ?? false);
  useEffect(() => {
    const list = window.matchMedia?.(query);
    if (!list) return;
    const update = () => setMatches(list.matches);
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}

interface ThemeModeValue {
  mode: ThemeMode;
  reducedMotion: boolean;
  setMode: (mode: ThemeMode) => void;
  toggle: () => void;
}

const ThemeModeContext = createContext<ThemeModeValue | null>(null);

export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [stored, setStored] = useState<ThemeMode | null>(readStoredTheme);
  const systemDark = useMediaQuery(DARK_QUERY);
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY);
  const mode = stored ?? (systemDark ? 'dark' : 'light');

  useLayoutEffect(() => applyThemeToDocument(mode), [mode]);

  const setMode = useCallback((next: ThemeMode) => {
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Private mode may refuse storage; the choice still applies to this page.
    }
    setStored(next);
  }, []);

  const value = useMemo<ThemeModeValue>(
    () => ({ mode, reducedMotion, setMode, toggle: () => setMode(mode === 'dark' ? 'light' : 'dark') }),
    [mode, reducedMotion, setMode],
  );

  return <ThemeModeContext.Provider value={value}>{children}</ThemeModeContext.Provider>;
}

export function useThemeMode(): ThemeModeValue {
  const value = useContext(ThemeModeContext);
  if (!value) throw new Error('useThemeMode must be used inside ThemeModeProvider');
  return value;
}
