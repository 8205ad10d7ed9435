import { Box, Flex, IconButton } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
  type RefObject,
} from 'react';
import { useIntl } from 'react-intl';
import { useLocation, useMatches } from 'react-router-dom';
import { Icon } from '../../components/icons';
import type { MessageId } from '../../i18n/messages';
import { useAppActors } from '../actors/actors-context';
import { useArea } from '../actors/areas';
import { withLaterTheme } from '../routes/lazy';
import { notificationsArea } from '../actors/notifications';
import { AgreementPrompt } from './agreement-prompt';
import { CommandPalette, usePaletteShortcut } from './command-palette';
import { Footer } from './footer';
import { KeepAliveOutlet } from './keep-alive-outlet';
import { Navbar } from './navbar';
import { shownCount } from './notification-bell';
import { OverstepBanner } from './overstep-banner';
import { ShellRouteContext } from './shell-route-context';
import { SideMenu } from './side-menu';
import { TabBar } from './tab-bar';
import { useTabsFollowRoute } from './tabs-follow-route';
import { TopMenu } from './top-menu';

/** The settings drawer's code (its number field and switches) comes with its first opening. */
const SettingsDrawer = lazy(
  withLaterTheme(() => import('./settings-drawer').then((m) => ({ default: m.SettingsDrawer }))),
);

/** Mounts the settings drawer once it has first been opened, and keeps it from then on. */
function LazySettingsDrawer() {
  const { settings } = useAppActors();
  const open = useSelector(settings, (s) => s.hasTag('drawerOpen'));
  const [wanted, setWanted] = useState(open);
  if (open && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <SettingsDrawer />
    </Suspense>
  ) : null;
}

/**
 * Sets the document title from the open route and the brand name. A leaf component, like
 * ScrollReset: route changes re-render these, not the whole shell.
 */
export function DocumentTitle() {
  const { branding } = useAppActors();
  const brandName = useSelector(branding, (s) => s.context.info?.name);
  // The unread notifications lead the title, "(3) Page - Brand" (docs/domain.md §18).
  const { bell } = useArea(notificationsArea);
  const unread = useSelector(bell, (s) => s.context.count ?? 0);
  const intl = useIntl();
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as { titleId?: MessageId } | undefined;
  useEffect(() => {
    const page = handle?.titleId ? intl.formatMessage({ id: handle.titleId }) : '';
    const title = [page, brandName].filter(Boolean).join(' - ');
    document.title = unread > 0 ? `(${shownCount(unread)}) ${title}` : title;
  }, [handle?.titleId, brandName, intl, unread]);
  return null;
}

/** Spec §2: scroll resets to top on navigation (the page scrolls inside <main>). */
function ScrollReset(props: { target: RefObject<HTMLElement | null> }) {
  const { pathname } = useLocation();
  const { target } = props;
  useEffect(() => {
    target.current?.scrollTo?.({ top: 0 });
  }, [pathname, target]);
  return null;
}

/** Keeps tabs only while the tab bar is on. */
function TabsFollowRoute() {
  useTabsFollowRoute();
  return null;
}

/** With the navbar hidden, the settings drawer opens from a floating button (docs/domain.md §13). */
function FloatingSettingsButton() {
  const intl = useIntl();
  const { settings } = useAppActors();
  return (
    <IconButton
      position="fixed"
      bottom="6"
      right="6"
      zIndex="overlay"
      borderRadius="full"
      boxShadow="lg"
      aria-label={intl.formatMessage({ id: 'settings.title' })}
      onClick={() => settings.send({ type: 'OPEN_DRAWER' })}
    >
      <Icon name="settings" />
    </IconButton>
  );
}

/**
 * The layout shell: navbar, menus, tab bar, the open page, footer, settings drawer, palette.
 * Memoised: the router renders it afresh on every navigation, but only the parts that read the
 * location (menus, tab bar, the open page, title, scroll) need to follow one.
 */
export const Shell = memo(function Shell() {
  const { settings } = useAppActors();
  const navbar = useSelector(settings, (s) => s.context.navbar);
  const menu = useSelector(settings, (s) => s.context.menu);
  const topMenu = useSelector(settings, (s) => s.context.topMenu);
  const footer = useSelector(settings, (s) => s.context.footer);
  const tabBar = useSelector(settings, (s) => s.context.tabBar);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const openPalette = useCallback(() => setPaletteOpen(true), []);
  usePaletteShortcut(openPalette);
  const main = useRef<HTMLElement>(null);
  const scrollToTop = useCallback(() => main.current?.scrollTo?.({ top: 0 }), []);

  return (
    <ShellRouteContext>
      <Flex direction="column" height="100vh">
        <DocumentTitle />
        <ScrollReset target={main} />
        <OverstepBanner />
        {navbar && <Navbar onOpenPalette={openPalette} />}
        {topMenu && <TopMenu />}
        <Flex flex="1" minHeight="0">
          {menu && !topMenu && <SideMenu />}
          <Flex direction="column" flex="1" minWidth="0">
            {tabBar && <TabsFollowRoute />}
            {tabBar && <TabBar />}
            <Box ref={main} as="main" flex="1" overflowY="auto" padding="6" bg="bg.subtle">
              <KeepAliveOutlet onShowAhead={scrollToTop} />
            </Box>
            {footer && <Footer />}
          </Flex>
        </Flex>
        {!navbar && <FloatingSettingsButton />}
        <LazySettingsDrawer />
        <AgreementPrompt />
        <CommandPalette open={paletteOpen} onClose={() => setPaletteOpen(false)} />
      </Flex>
    </ShellRouteContext>
  );
});
