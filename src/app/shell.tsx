import type { MessageId } from '../i18n/messages';
import {
  Alert,
  Avatar,
  Box,
  Button,
  Flex,
  HStack,
  Image,
  Link,
  Menu,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { waitFor } from 'xstate';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { NavLink, Outlet, useLocation, useMatches, useNavigate } from 'react-router-dom';
import { roleOf } from '../api/contract/roles';
import { LocaleSwitch } from '../components/locale-switch';
import { useAppActors } from './actors-context';
import { matchRoute, menuFor, routeByName } from './route-table';

type TitleId = MessageId;

/** Sets the document title from the open route and the brand name. */
function useDocumentTitle(brandName: string | undefined) {
  const intl = useIntl();
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as { titleId?: TitleId } | undefined;
  useEffect(() => {
    const page = handle?.titleId ? intl.formatMessage({ id: handle.titleId }) : '';
    document.title = [page, brandName].filter(Boolean).join(' - ');
  }, [handle?.titleId, brandName, intl]);
}

function SideMenu() {
  const intl = useIntl();
  const { auth } = useAppActors();
  const location = useLocation();
  const user = useSelector(auth, (s) => s.context.user);
  if (!user) return null;
  const sections = menuFor({ role: roleOf(user.user_type), show_clip_menu: user.show_clip_menu });
  const open = matchRoute(location.pathname);
  const activeName = open.activeMenu ?? open.name;
  return (
    <Box
      as="nav"
      aria-label={intl.formatMessage({ id: 'shell.menu' })}
      width="220px"
      flexShrink={0}
      borderEndWidth="1px"
      bg="bg.panel"
      overflowY="auto"
      paddingY="3"
    >
      <Stack gap="4">
        {sections.map(({ group, routes }) => (
          <Stack key={group.key} gap="1" role="group" aria-labelledby={`menu-group-${group.key}`}>
            <Text
              id={`menu-group-${group.key}`}
              paddingX="4"
              fontSize="xs"
              fontWeight="semibold"
              color="fg.muted"
            >
              {intl.formatMessage({ id: group.titleId as TitleId })}
            </Text>
            {routes.map((route) => {
              const active = route.name === activeName;
              return (
                <Link
                  key={route.name}
                  asChild
                  paddingX="4"
                  paddingY="2"
                  marginX="2"
                  borderRadius="l2"
                  fontSize="sm"
                  bg={active ? 'brand.subtle' : undefined}
                  color={active ? 'brand.fg' : undefined}
                  fontWeight={active ? 'semibold' : undefined}
                  _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
                >
                  <NavLink to={route.path} aria-current={active ? 'page' : undefined}>
                    {intl.formatMessage({ id: route.titleId as TitleId })}
                  </NavLink>
                </Link>
              );
            })}
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}

export function UserMenu() {
  const intl = useIntl();
  const navigate = useNavigate();
  const { auth } = useAppActors();
  const user = useSelector(auth, (s) => s.context.user);
  const display = user?.nickname || user?.username || '';
  return (
    <Menu.Root
      onSelect={(d) => {
        if (d.value === 'logout') auth.send({ type: 'LOGOUT' });
        else navigate(routeByName(d.value)!.path);
      }}
    >
      <Menu.Trigger asChild>
        <Button
          variant="ghost"
          size="sm"
          aria-label={intl.formatMessage({ id: 'shell.userMenu' }, { name: display })}
        >
          <Avatar.Root size="xs">
            <Avatar.Fallback name={display} />
          </Avatar.Root>
          <Text display={{ base: 'none', md: 'inline' }}>{display}</Text>
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.Item value="userInfo">{intl.formatMessage({ id: 'route.userInfo' })}</Menu.Item>
            <Menu.Item value="userSetting">
              {intl.formatMessage({ id: 'route.userSetting' })}
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="logout">{intl.formatMessage({ id: 'shell.logout' })}</Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

/** An overstep tab says whose console it is, with a button that ends the overstep session. */
function OverstepBanner() {
  const intl = useIntl();
  const { auth } = useAppActors();
  const user = useSelector(auth, (s) => s.context.user);
  if (!user?.overstep_by) return null;
  return (
    <Alert.Root status="warning" borderRadius="0" role="status">
      <Alert.Indicator />
      <Alert.Title>
        {intl.formatMessage(
          { id: 'overstep.banner' },
          { merchant: user.nickname || user.username, by: user.overstep_by.username },
        )}
      </Alert.Title>
      <Button
        size="xs"
        marginStart="auto"
        variant="outline"
        onClick={() => {
          // End the overstep session, then close its tab (a "login as" tab is script-opened;
          // where the browser refuses, the tab simply lands on the login page).
          auth.send({ type: 'LOGOUT' });
          void waitFor(auth, (s) => s.matches('signedOut')).then(() => window.close());
        }}
      >
        {intl.formatMessage({ id: 'overstep.end' })}
      </Button>
    </Alert.Root>
  );
}

/** The layout shell: navbar, side menu and the open page (issue 3 completes it). */
export function Shell() {
  const intl = useIntl();
  const { branding } = useAppActors();
  const info = useSelector(branding, (s) => s.context.info);
  useDocumentTitle(info?.name);
  return (
    <Flex direction="column" height="100vh">
      <OverstepBanner />
      <Flex
        as="header"
        height="60px"
        flexShrink={0}
        align="center"
        justify="space-between"
        paddingX="4"
        borderBottomWidth="1px"
        bg="bg.panel"
      >
        <HStack gap="2">
          {info?.logo && <Image src={info.logo} alt="" boxSize="8" />}
          <Text fontWeight="bold" fontSize="lg">
            {info?.name}
          </Text>
        </HStack>
        <HStack gap="2" aria-label={intl.formatMessage({ id: 'shell.toolbar' })}>
          <LocaleSwitch />
          <UserMenu />
        </HStack>
      </Flex>
      <Flex flex="1" minHeight="0">
        <SideMenu />
        <Box as="main" flex="1" overflowY="auto" padding="6" bg="bg.subtle">
          <Outlet />
        </Box>
      </Flex>
    </Flex>
  );
}
