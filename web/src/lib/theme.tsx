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

/**
 * Where antd's stock colours fall short of WCAG AA for text (4.5:1) on the backgrounds they are
 * drawn on, the shade next to them that reaches it (checked in theme.test.tsx): the greys of
 * secondary text and of select placeholders, links and selected menu items and tabs, status tags
 * and danger buttons. Fills, borders and icons keep antd's palette.
 */
const READABLE = {
  light: {
    grey: 'rgba(0, 0, 0, 0.56)', // 0.45 and 0.25 in antd
    link: '#2e56f5', // the primary, one step darker: antd's #1677ff and the primary itself miss on tinted backgrounds
    success: '#237804',
    error: '#cf1322',
    danger: '#d9363e',
    warning: '#ad4e00',
    info: '#0958d9',
  },
  dark: {
    grey: 'rgba(255, 255, 255, 0.5)',
    link: '#7b97ff',
    success: undefined,
    error: '#f05a5c',
    danger: '#e84749',
    warning: undefined,
    info: '#7b97ff',
  },
} as const;

/** antd's theme for a mode; with reduced motion its popups, drawers and messages appear without animating. */
export function antdTheme(mode: ThemeMode, reducedMotion = false): ThemeConfig {
  const readable = READABLE[mode];
  return {
    algorithm: mode === 'dark' ? antdThemes.darkAlgorithm : antdThemes.defaultAlgorithm,
    token: {
      colorPrimary: PRIMARY_COLOR,
      borderRadius: BORDER_RADIUS,
      motion: !reducedMotion,
      colorTextTertiary: readable.grey,
      colorTextPlaceholder: readable.grey,
      colorLink: readable.link,
      // Error text (form messages, failed figures); fills and borders keep antd's colorError.
      colorErrorText: readable.error,
    },
    components: {
      Menu: { itemSelectedColor: readable.link, horizontalItemSelectedColor: readable.link },
      ...(mode === 'dark' && { Tabs: { itemSelectedColor: readable.link, itemActiveColor: readable.link, itemHoverColor: readable.link } }),
      Tag: {
        // Preset colours draw their text in the palette's 7th shade: some of those used here miss in light.
        ...(mode === 'light' && { green7: '#237804', cyan7: '#006d75', gold7: '#874d00', orange7: '#ad4e00' }),
        ...(readable.success && { colorSuccess: readable.success }),
        colorError: readable.error,
        ...(readable.warning && { colorWarning: readable.warning }),
        ...(readable.info && { colorInfo: readable.info }),
      },
      Typography: {
        ...(readable.success && { colorSuccessText: readable.success }),
        ...(readable.warning && { colorWarningText: readable.warning }),
        colorErrorText: readable.error,
      },
      Button: { colorError: readable.danger, colorLink: readable.link },
    },
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
