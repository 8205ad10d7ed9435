import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createAppActors, defaultDeps, loadShellModule } from './app/actors/app-actors';
import { STORAGE_KEYS } from './api/contract/storage-keys';
import { setInspector } from './app/actors/inspection';
import { configureHttp, sendEarly, tokenStore, USER_INFO_PATH } from './api/http';
import { adoptEarly } from './api/http-early';
import { firstPagePainted } from './app/boot/first-paint';
import { nextTask } from './app/boot/next-task';
import { Providers } from './app/boot/providers';
import { createAppRouter } from './app/routes/router';
import { notify, prepareNotices } from './components/toaster';
import { currentIntl, formatText } from './i18n/intl';
import { localeStore } from './i18n/locale-store';
import { systemStore } from './app/theme/system-store';
import { loadMessages, loadSignedInMessages } from './i18n/messages';
import {
  applyColorWeakToDocument,
  applyThemeToDocument,
  storedLook,
} from './app/theme/document-theme';

document.documentElement.lang = localeStore.get();
// Only the shown language's catalogue is downloaded (src/i18n/messages.ts), its signed-out part
// unless a session is stored.
const catalogue = loadMessages(localeStore.get());
// The shell's actors (menu, settings, tabs) and the catalogue's signed-in part load with a session
// (AppActors.loadShell, loadSignedInMessages, awaited by the router's guard): fetched beside the
// catalogue when one is stored. Until the actors exist, the stored theme and colour weak are
// applied here, as login.html's inline script and then the settings actor apply them.
// A stored session is checked at once, beside the catalogue and the page's code (preloaded by
// index.html, build/preload-routes.ts), not after them: sent early, the auth actor's first check
// reads this request's reply instead of sending its own, as the page's first data calls (sent by
// index.html's script) are read by the page's actors (src/api/http-early.ts; docs/architecture.md
// "Signed-in pages in one wave"). Each reply is read with the error policy of its reader, as if
// that had sent it; one nobody asks for is never read.
// With a session, the views' whole Chakra system (theme-later.ts, preloaded by index.html) is
// built once, before the first render, not the first page's system and then the whole one (two
// builds of ≈ 0.1 s and every style resolved twice).
const wholeSystem = tokenStore.get()
  ? import('./app/theme/theme-later').then(
      () => {},
      () => {},
    )
  : undefined;
if (tokenStore.get()) {
  configureHttp({ locale: () => localeStore.get() });
  adoptEarly();
  sendEarly({ method: 'POST', path: USER_INFO_PATH });
  void loadShellModule();
  void loadSignedInMessages(localeStore.get()).catch(() => {}); // the guard awaits it again
}
try {
  const look = storedLook(localStorage.getItem(STORAGE_KEYS.layoutSettings));
  applyThemeToDocument(look.theme);
  if (look.colorWeak) applyColorWeakToDocument(true);
} catch {
  /* storage disabled: the default look */
}

// Development only: `?inspect` opens the XState inspector on the app-level actors (README).
// Production builds drop this branch and never contain the inspector.
if (import.meta.env.DEV && new URLSearchParams(location.search).has('inspect')) {
  const { startInspector } = await import('./app/boot/inspector');
  setInspector(startInspector());
}

// The actors start and the console renders once the catalogue is in, so no notice is raised (or
// missed by a view not yet mounted) before there are words for it. No top-level await: lazy
// views import from this chunk. The pre-rendered login page (login.html) is on screen by then:
// the start is cut into tasks (the Chakra system, the actors and router, the render, itself
// rendered in time slices as a transition), so a key press or click in that copy is answered
// between them instead of after one long task (docs/performance.md, "Long tasks at start").
void catalogue.then(async () => {
  await nextTask();
  await wholeSystem;
  systemStore.get(); // builds the first page's Chakra system (signed in: the whole one is in)
  await nextTask();
  // App-level actors live outside React so the HTTP layer and the router can reach them.
  const api = defaultDeps().api;
  const actors = createAppActors({
    // The branding (name, logo, page title, tab icon) is fetched once the first page is painted.
    api: {
      ...api,
      getSystemInfo: (...args) => firstPagePainted.then(() => api.getSystemInfo(...args)),
    },
    notify: (notice) =>
      notify(notice.type, formatText(currentIntl(), notice.text), notice.durationMs),
    locale: () => localeStore.get(),
  });
  const router = createAppRouter(actors);
  // A stored session: the console, not the login page, comes next, and its notices with it.
  if (tokenStore.get()) prepareNotices();
  await nextTask();

  const root = createRoot(document.getElementById('root')!);
  root.render(
    <StrictMode>
      <Providers actors={actors}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
