import { theme as antdThemes, type ThemeConfig } from 'antd';
import { BORDER_RADIUS, PRIMARY_COLOR, type ThemeMode } from './theme';

/**
 * Where antd's stock colours fall short of WCAG AA for text (4.5:1) on the backgrounds they are
 * drawn on, the shade next to them that reaches it (checked in theme.test.tsx): the greys of
 * secondary text and of select placeholders, links and selected menu items and tabs, status tags
 * and danger buttons. Fills, borders and icons keep antd's palette.
 */
export const READABLE = {
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

