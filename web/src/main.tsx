import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'nprogress/nprogress.css';
import { App } from './app/app';
import './app/styles.css';
import { detectMobileMode } from './lib/client-env';
import { initialLanguage, startI18n } from './lib/i18n';
import { applyThemeToDocument, readStoredTheme, systemTheme } from './lib/theme';

applyThemeToDocument(readStoredTheme() ?? systemTheme());

function render() {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// The page's language arrives as its own small chunk, fetched beside the route's; the first render
// waits for it so no text is shown untranslated. Should it fail to load, the page still renders
// (with keys), instead of staying blank.
void startI18n(initialLanguage(detectMobileMode(), window.navigator.language)).then(render, render);
