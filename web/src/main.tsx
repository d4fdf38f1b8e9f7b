import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'nprogress/nprogress.css';
import { App } from './app/app';
import { mobileEquivalent } from './app/mobile-redirect';
import { createAppRouter } from './app/router';
import './app/styles.css';
import { detectMobileMode } from './lib/client-env';
import { initialLanguage, startI18n } from './lib/i18n';
import { applyThemeToDocument, readStoredTheme, systemTheme } from './lib/theme';

applyThemeToDocument(readStoredTheme() ?? systemTheme());

// The page's texts arrive as their own small chunk; the first render waits for them so no text is
// shown untranslated (should they fail to load, the page still renders, with keys, instead of
// staying blank). The router is created meanwhile: it starts loading the first page's code at
// once, beside the texts instead of after them.
const mobile = detectMobileMode();
const texts = startI18n(initialLanguage(mobile, window.navigator.language));

// A phone opening a desktop link goes to its phone screen before the router starts, so it does not
// download the desktop page's code first (the desktop layout redirects on later navigations).
const phoneTarget = mobile ? mobileEquivalent(window.location.pathname) : null;
if (phoneTarget) window.history.replaceState(window.history.state, '', phoneTarget + window.location.search + window.location.hash);

const router = createAppRouter();

function render() {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
}

void texts.then(render, render);
