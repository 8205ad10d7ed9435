import { Box, Flex, HStack, IconButton, Image, Kbd, Text, Button } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Icon } from '../../components/icons';
import { LocaleSwitch } from '../../components/locale-switch';
import { useAppActors } from '../actors/actors-context';
import { commandById } from './commands';
import { HelpButton } from './help-button';
import { NotificationBell } from './notification-bell';
import { UserMenu } from './user-menu';

/** The top bar: brand, command palette, help, notifications, locale, theme, settings, user menu. */
export function Navbar(props: { onOpenPalette: () => void }) {
  const intl = useIntl();
  const actors = useAppActors();
  const info = useSelector(actors.branding, (s) => s.context.info);
  const dark = useSelector(actors.settings, (s) => s.context.theme === 'dark');
  return (
    <Flex
      as="header"
      height="60px"
      flexShrink={0}
      align="center"
      justify="space-between"
      paddingX="4"
      gap="4"
      borderBottomWidth="1px"
      // The brand's edge: the domain's theme colour (docs/domain.md §12).
      borderTopWidth="3px"
      borderTopColor="brand.solid"
      bg="bg.panel"
      data-testid="navbar"
    >
      <HStack gap="2" minWidth="0">
        {info?.logo && <Image src={info.logo} alt="" boxSize="8" />}
        <Text fontWeight="bold" fontSize="lg" truncate>
          {info?.name}
        </Text>
      </HStack>
      <HStack gap="1" as="nav" aria-label={intl.formatMessage({ id: 'shell.toolbar' })}>
        <Button
          variant="outline"
          size="sm"
          color="fg.muted"
          onClick={props.onOpenPalette}
          aria-keyshortcuts="Control+K Meta+K"
        >
          <Icon name="search" size={16} />
          <Box as="span" display={{ base: 'none', md: 'inline' }}>
            {intl.formatMessage({ id: 'palette.open' })}
          </Box>
          <Kbd size="sm" display={{ base: 'none', md: 'inline-flex' }}>
            {intl.formatMessage({ id: 'palette.shortcut' })}
          </Kbd>
        </Button>
        <HelpButton />
        <NotificationBell />
        <LocaleSwitch />
        <IconButton
          variant="ghost"
          size="sm"
          aria-label={intl.formatMessage({ id: dark ? 'shell.lightTheme' : 'shell.darkTheme' })}
          onClick={() => commandById('theme').perform(actors)}
        >
          <Icon name={dark ? 'sun' : 'moon'} />
        </IconButton>
        <IconButton
          variant="ghost"
          size="sm"
          aria-label={intl.formatMessage({ id: 'settings.title' })}
          onClick={() => commandById('settings').perform(actors)}
        >
          <Icon name="settings" />
        </IconButton>
        <UserMenu />
      </HStack>
    </Flex>
  );
}
