import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createAppActors } from './app/app-actors';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { notify } from './components/toaster';
import { currentIntl, formatText } from './i18n/intl';
import { localeStore } from './i18n/locale-store';

document.documentElement.lang = localeStore.get();

// App-level actors live outside React so the HTTP layer and the router can reach them.
const actors = createAppActors({
  notify: (notice) =>
    notify(notice.type, formatText(currentIntl(), notice.text), notice.durationMs),
  locale: () => localeStore.get(),
});
const router = createAppRouter(actors);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
