import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'nprogress/nprogress.css';
import { App } from './app/app';
import './app/styles.css';
import { detectMobileMode } from './lib/client-env';
import { initI18n, initialLanguage } from './lib/i18n';
import { installMobileRender } from './lib/mobile-render';
import { applyThemeToDocument, readStoredTheme, systemTheme } from './lib/theme';

installMobileRender();
applyThemeToDocument(readStoredTheme() ?? systemTheme());
initI18n(initialLanguage(detectMobileMode(), window.navigator.language));

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
