import { theme } from 'antd';
import { useLayoutEffect } from 'react';

/** Publishes the current antd tokens as CSS variables so the app's own styles follow the theme. */
export function ThemeVariables() {
  const { token } = theme.useToken();

  useLayoutEffect(() => {
    const style = document.documentElement.style;
    const variables: Record<string, string> = {
      '--fw-primary': token.colorPrimary,
      '--fw-primary-bg': token.colorPrimaryBg,
      '--fw-bg-layout': token.colorBgLayout,
      '--fw-bg-container': token.colorBgContainer,
      '--fw-bg-elevated': token.colorBgElevated,
      '--fw-text': token.colorText,
      '--fw-text-secondary': token.colorTextSecondary,
      '--fw-text-tertiary': token.colorTextTertiary,
      '--fw-link': token.colorLink,
      '--fw-border': token.colorBorderSecondary,
      '--fw-error': token.colorError,
      '--fw-error-text': token.colorErrorText,
      '--fw-error-bg': token.colorErrorBg,
      '--fw-radius': `${token.borderRadius}px`,
      '--fw-font': token.fontFamily,
      '--adm-color-primary': token.colorPrimary,
    };
    for (const [name, value] of Object.entries(variables)) style.setProperty(name, value);
  }, [token]);

  return null;
}
