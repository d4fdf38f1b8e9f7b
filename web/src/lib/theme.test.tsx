import { renderHook } from '@testing-library/react';
import { theme as antdThemes } from 'antd';
import type { ReactNode } from 'react';
import { antdTheme } from './antd-theme';
import { applyThemeToDocument, THEME_VARIABLES, ThemeModeProvider, useThemeMode } from './theme';

/** Makes the system answer one media query with true. */
function systemMatches(query: string) {
  const original = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((q: string) => ({ ...original(q), matches: q === query }));
}

const wrapper = ({ children }: { children: ReactNode }) => <ThemeModeProvider>{children}</ThemeModeProvider>;

/** A colour (#rrggbb or rgba) laid over an opaque background, as [r, g, b]. */
function over(color: string, background: [number, number, number]): [number, number, number] {
  if (color.startsWith('#')) return [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16)) as [number, number, number];
  const [r, g, b, a] = color.match(/[\d.]+/g)!.map(Number);
  return [r, g, b].map((c, i) => c * a + background[i] * (1 - a)) as [number, number, number];
}

/** WCAG 2 contrast ratio of a text colour on an opaque background. */
function contrast(text: string, background: string): number {
  const bg = over(background, [0, 0, 0]);
  const lum = (rgb: number[]) =>
    rgb.map((c) => c / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const [hi, lo] = [lum(over(text, bg)), lum(bg)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}

describe('theme', () => {
  for (const mode of ['light', 'dark'] as const) {
    it(`draws secondary text, placeholders, links, selected items, tags and danger buttons at 4.5:1 or more (${mode})`, () => {
      const config = antdTheme(mode);
      const token = antdThemes.getDesignToken(config);
      const pages = [token.colorBgContainer, token.colorBgLayout, token.colorBgElevated];
      for (const bg of pages) {
        expect(contrast(token.colorTextDescription, bg), `description on ${bg}`).toBeGreaterThanOrEqual(4.5);
        expect(contrast(token.colorTextPlaceholder, bg), `placeholder on ${bg}`).toBeGreaterThanOrEqual(4.5);
        expect(contrast(token.colorLink, bg), `link on ${bg}`).toBeGreaterThanOrEqual(4.5);
        // Error text: form messages and failed figures (--fw-error-text), e.g. a push success rate.
        expect(contrast(token.colorErrorText, bg), `error text on ${bg}`).toBeGreaterThanOrEqual(4.5);
      }
      const menu = config.components!.Menu!;
      expect(contrast(menu.itemSelectedColor!, token.colorPrimaryBg), 'selected menu item').toBeGreaterThanOrEqual(4.5);
      expect(contrast(menu.horizontalItemSelectedColor!, token.colorBgContainer), 'selected top menu item').toBeGreaterThanOrEqual(4.5);
      const tabs = config.components?.Tabs?.itemSelectedColor ?? token.colorPrimary;
      expect(contrast(tabs, token.colorBgContainer), 'selected tab').toBeGreaterThanOrEqual(4.5);
      const tag = { ...token, ...config.components!.Tag } as typeof token;
      for (const status of ['Success', 'Error', 'Warning', 'Info'] as const) {
        expect(contrast(tag[`color${status}`], token[`color${status}Bg`]), `${status} tag`).toBeGreaterThanOrEqual(4.5);
      }
      const typography = { ...token, ...config.components!.Typography } as typeof token;
      for (const status of ['Success', 'Error', 'Warning'] as const) {
        expect(contrast(typography[`color${status}Text`], token.colorBgContainer), `${status} text`).toBeGreaterThanOrEqual(4.5);
      }
      expect(contrast(config.components!.Button!.colorError!, token.colorBgContainer), 'danger button text').toBeGreaterThanOrEqual(4.5);
    });
  }

  for (const mode of ['light', 'dark'] as const) {
    it(`writes out antd's own colours as the CSS variables of the pages drawn without antd (${mode})`, () => {
      const token = antdThemes.getDesignToken(antdTheme(mode));
      const norm = (value: string) => value.replace(/\s+/g, '');
      const expected: Record<string, string> = {
        '--fw-primary': token.colorPrimary,
        '--fw-primary-hover': token.colorPrimaryHover,
        '--fw-primary-active': token.colorPrimaryActive,
        '--fw-primary-bg': token.colorPrimaryBg,
        '--fw-bg-layout': token.colorBgLayout,
        '--fw-bg-container': token.colorBgContainer,
        '--fw-bg-elevated': token.colorBgElevated,
        '--fw-fill': token.colorFillTertiary,
        '--fw-fill-secondary': token.colorFillSecondary,
        '--fw-text': token.colorText,
        '--fw-text-secondary': token.colorTextSecondary,
        '--fw-text-tertiary': token.colorTextTertiary,
        '--fw-link': token.colorLink,
        '--fw-border': token.colorBorderSecondary,
        '--fw-border-strong': token.colorBorder,
        '--fw-success': token.colorSuccess,
        '--fw-error': token.colorError,
        '--fw-error-text': token.colorErrorText,
        '--fw-error-bg': token.colorErrorBg,
        '--fw-error-border': token.colorErrorBorder,
      };
      expect(Object.fromEntries(Object.entries(THEME_VARIABLES[mode]).map(([k, v]) => [k, norm(v)]))).toEqual(
        Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, norm(v)])),
      );
      applyThemeToDocument(mode);
      const style = document.documentElement.style;
      expect(norm(style.getPropertyValue('--fw-font'))).toBe(norm(token.fontFamily));
      expect(style.getPropertyValue('--fw-radius')).toBe(`${token.borderRadius}px`);
      expect(style.getPropertyValue('--fw-bg-container')).toBe(THEME_VARIABLES[mode]['--fw-bg-container']);
    });
  }

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
