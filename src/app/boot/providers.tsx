import { ChakraProvider } from '@chakra-ui/react';
import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { noticesRaised } from '../../components/toaster';
import { IntlProvider } from 'react-intl';
import { useLocale } from '../../components/locale-switch';
import { messagesFor, subscribeMessages } from '../../i18n/messages';
import { ActorsContext, type AppActors } from '../actors/actors-context';
import { withLaterTheme } from '../routes/lazy';
import { MenuNotices } from '../shell/menu-notices';
import { systemStore } from '../theme/system-store';

// The toaster (zag's toast machines) loads and mounts with the first notice.
const AppToaster = lazy(withLaterTheme(() => import('../../components/app-toaster')));

export function Providers(props: { actors: AppActors; children: ReactNode }) {
  const locale = useLocale();
  // The catalogue changes once when its signed-in part arrives (src/i18n/messages.ts).
  const catalogue = () => messagesFor(locale);
  const messages = useSyncExternalStore(subscribeMessages, catalogue, catalogue);
  const toaster = useSyncExternalStore(
    noticesRaised.subscribe,
    noticesRaised.get,
    noticesRaised.get,
  );
  const system = useSyncExternalStore(systemStore.subscribe, systemStore.get, systemStore.get);
  // The menu's notices need the menu actor, which comes with the shell's actors.
  const { subscribeShell, shellLoaded } = props.actors;
  const shell = useSyncExternalStore(subscribeShell, shellLoaded, shellLoaded);
  return (
    <ActorsContext.Provider value={props.actors}>
      <IntlProvider locale={locale} defaultLocale="en-US" messages={messages}>
        <ChakraProvider value={system}>
          {props.children}
          {toaster && (
            <Suspense>
              <AppToaster />
            </Suspense>
          )}
          {shell && <MenuNotices />}
        </ChakraProvider>
      </IntlProvider>
    </ActorsContext.Provider>
  );
}
