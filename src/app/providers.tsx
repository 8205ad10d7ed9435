import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { AppToaster } from '../components/toaster';
import { useLocale } from '../components/locale-switch';
import { messagesFor } from '../i18n/messages';
import { ActorsContext, type AppActors } from './actors-context';
import { MenuNotices } from './session-dialogs';
import { system } from './theme';

export function Providers(props: { actors: AppActors; children: ReactNode }) {
  const locale = useLocale();
  return (
    <ActorsContext.Provider value={props.actors}>
      <IntlProvider locale={locale} defaultLocale="en-US" messages={messagesFor(locale)}>
        <ChakraProvider value={system}>
          {props.children}
          <AppToaster />
          <MenuNotices />
        </ChakraProvider>
      </IntlProvider>
    </ActorsContext.Provider>
  );
}
