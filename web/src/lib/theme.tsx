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

const FONT =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji', 'Segoe UI Symbol', 'Noto Color Emoji'";

/**
 * The theme's colours as CSS variables for the app's own styles and the pages drawn without antd
 * (login, loading, errors): antd's design tokens of each mode, written out so the first paint
 * needs no antd (antd-theme.test.ts keeps them equal to the tokens antd computes).
 */
export const THEME_VARIABLES: Record<ThemeMode, Record<string, string>> = {
  light: {
    '--fw-primary': '#3961ff',
    '--fw-primary-hover': '#6186ff',
    '--fw-primary-active': '#2543d9',
    '--fw-primary-bg': '#f0f5ff',
    '--fw-bg-layout': '#f5f5f5',
    '--fw-bg-container': '#ffffff',
    '--fw-bg-elevated': '#ffffff',
    '--fw-fill': 'rgba(0,0,0,0.04)',
    '--fw-fill-secondary': 'rgba(0,0,0,0.06)',
    '--fw-text': 'rgba(0,0,0,0.88)',
    '--fw-text-secondary': 'rgba(0,0,0,0.65)',
    '--fw-text-tertiary': 'rgba(0, 0, 0, 0.56)',
    '--fw-link': '#2e56f5',
    '--fw-border': '#f0f0f0',
    '--fw-border-strong': '#d9d9d9',
    '--fw-success': '#52c41a',
    '--fw-error': '#ff4d4f',
    '--fw-error-text': '#cf1322',
    '--fw-error-bg': '#fff2f0',
    '--fw-error-border': '#ffccc7',
  },
  dark: {
    '--fw-primary': '#3355dc',
    '--fw-primary-hover': '#597be8',
    '--fw-primary-active': '#2c46ad',
    '--fw-primary-bg': '#1f2b5b',
    '--fw-bg-layout': '#000000',
    '--fw-bg-container': '#141414',
    '--fw-bg-elevated': '#1f1f1f',
    '--fw-fill': 'rgba(255,255,255,0.08)',
    '--fw-fill-secondary': 'rgba(255,255,255,0.12)',
    '--fw-text': 'rgba(255,255,255,0.85)',
    '--fw-text-secondary': 'rgba(255,255,255,0.65)',
    '--fw-text-tertiary': 'rgba(255, 255, 255, 0.5)',
    '--fw-link': '#6c83dc',
    '--fw-border': '#303030',
    '--fw-border-strong': '#424242',
    '--fw-success': '#49aa19',
    '--fw-error': '#dc4446',
    '--fw-error-text': '#f05a5c',
    '--fw-error-bg': '#2c1618',
    '--fw-error-border': '#5b2526',
  },
};

/** Marks <html> so antd-mobile, global CSS and native controls all follow the chosen mode. */
export function applyThemeToDocument(mode: ThemeMode) {
  const root = document.documentElement;
  root.setAttribute('data-theme', mode);
  root.setAttribute('data-prefers-color-scheme', mode);
  root.style.colorScheme = mode;
  const variables = {
    ...THEME_VARIABLES[mode],
    '--fw-radius': `${BORDER_RADIUS}px`,
    '--fw-font': FONT,
    '--adm-color-primary': THEME_VARIABLES[mode]['--fw-primary'],
  };
  for (const [name, value] of Object.entries(variables)) root.style.setProperty(name, value);
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

/** The current mode's theme colours (THEME_VARIABLES), for drawings that take colours as values. */
export function useThemeVariables(): Record<string, string> {
  return THEME_VARIABLES[useThemeMode().mode];
}
