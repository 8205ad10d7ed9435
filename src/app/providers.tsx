import { ChakraProvider } from '@chakra-ui/react';
import { lazy, Suspense, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { useLocale } from '../components/locale-switch';
import { messagesFor } from '../i18n/messages';
import { ActorsContext, type AppActors } from './actors-context';
import { useFirstPagePainted } from './first-paint';
import { MenuNotices } from './menu-notices';
import { system } from './theme';

// The toaster (zag's toast machines) mounts once the first page has painted; notices raised
// before then wait in the toaster's store and show when it mounts.
const AppToaster = lazy(() => import('../components/app-toaster'));

export function Providers(props: { actors: AppActors; children: ReactNode }) {
  const locale = useLocale();
  const painted = useFirstPagePainted();
  return (
    <ActorsContext.Provider value={props.actors}>
      <IntlProvider locale={locale} defaultLocale="en-US" messages={messagesFor(locale)}>
        <ChakraProvider value={system}>
          {props.children}
          {painted && (
            <Suspense>
              <AppToaster />
            </Suspense>
          )}
          <MenuNotices />
        </ChakraProvider>
      </IntlProvider>
    </ActorsContext.Provider>
  );
}
