import { ChakraProvider } from '@chakra-ui/react';
import { renderToString } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { createActor } from 'xstate';
import { LOCALES } from '../api/contract/messages';
import { STORAGE_KEYS } from '../api/contract/storage-keys';
import { ActorsContext, type AppActors } from '../app/actors/actors-context';
import { createConsoleSystem } from '../app/theme/theme';
import { localeStore } from '../i18n/locale-store';
import { loadMessages, messagesFor } from '../i18n/messages';
import { authMachine } from '../machines/auth';
import { brandingMachine } from '../machines/branding';
import LoginPage from '../views/login/login-page';
import { composeLoginHtml, variantName } from './compose';

/**
 * Build time (build/after-build.ts): the login page as the console first renders it for a signed-out
 * visitor — no branding yet, nothing typed — in each locale, with and without a remembered
 * account, as HTML with its styles.
 */
function renderLoginPage(locale: (typeof LOCALES)[number], remembered: boolean): string {
  // The page reads the remembered account from local storage (the real one is filled in the
  // browser by the inline script of login.html).
  const storage = {
    getItem: (key: string) => (remembered && key === STORAGE_KEYS.rememberedAccount ? '' : null),
  };
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
  localeStore.set(locale); // the language switch shows the page's language
  // Not started: the page reads their first snapshots only.
  const actors = {
    auth: createActor(authMachine, { input: { tokenKind: null } }),
    branding: createActor(brandingMachine),
  } as unknown as AppActors;
  try {
    return renderToString(
      <ActorsContext.Provider value={actors}>
        <IntlProvider locale={locale} defaultLocale="en-US" messages={messagesFor(locale)}>
          <ChakraProvider value={createConsoleSystem()}>
            <LoginPage />
          </ChakraProvider>
        </IntlProvider>
      </ActorsContext.Provider>,
    );
  } finally {
    Reflect.deleteProperty(globalThis, 'localStorage');
  }
}

/**
 * login.html: the built index.html with the pre-rendered login page in it, and `inlineScript`
 * (the bundled src/app/boot/prerender-inline.ts) to pick its variant.
 */
export async function buildLoginHtml(indexHtml: string, inlineScript: string): Promise<string> {
  const variants: Record<string, string> = {};
  for (const locale of LOCALES) {
    await loadMessages(locale);
    for (const remembered of [false, true]) {
      variants[variantName(locale, remembered)] = renderLoginPage(locale, remembered);
    }
  }
  return composeLoginHtml(indexHtml, variants, inlineScript);
}
