import { Box, Flex, IconButton, Link, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { memo, useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { Icon, type IconName } from '../../components/icons';
import type { MessageId } from '../../i18n/messages';
import { useAppActors } from '../actors/actors-context';
import { matchRoute } from '../routes/route-table';
import { useMenuSections, type MenuSection } from './use-menu-sections';

export const COLLAPSED_MENU_WIDTH = 56;

/** The name of the menu entry that lights up for the open page (hidden pages name theirs). */
export function useActiveMenuName(): string {
  const open = matchRoute(useLocation().pathname);
  return open.activeMenu ?? open.name;
}

/**
 * One page in the side menu. Memoised: a navigation re-renders the two entries whose highlight
 * changes, not every entry.
 */
const MenuEntry = memo(function MenuEntry(props: {
  path: string;
  title: string;
  icon: IconName;
  active: boolean;
  collapsed: boolean;
}) {
  const { path, title, icon, active, collapsed } = props;
  // A plain link, not NavLink: NavLink drops aria-current unless its own path matches, and a
  // hidden page (mixedshear) lights another page's entry.
  return (
    <Link
      asChild
      paddingX={collapsed ? '0' : '4'}
      paddingY="2"
      marginX="2"
      borderRadius="l2"
      fontSize="sm"
      justifyContent={collapsed ? 'center' : 'flex-start'}
      bg={active ? 'brand.subtle' : undefined}
      color={active ? 'brand.fg' : 'fg'}
      fontWeight={active ? 'semibold' : undefined}
      _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
    >
      <RouterLink
        to={path}
        aria-current={active ? 'page' : undefined}
        aria-label={collapsed ? title : undefined}
        title={collapsed ? title : undefined}
      >
        {collapsed ? <Icon name={icon} /> : title}
      </RouterLink>
    </Link>
  );
});

/** One section of the side menu. Memoised: `activeName` is given only to the section holding it. */
const MenuSectionView = memo(function MenuSectionView(props: {
  section: MenuSection;
  activeName: string | null;
  collapsed: boolean;
}) {
  const intl = useIntl();
  const { section, activeName, collapsed } = props;
  const t = (id: string) => intl.formatMessage({ id: id as MessageId });
  return (
    <Stack gap="1" role="group" aria-label={t(section.titleId)}>
      {!collapsed && (
        <Text paddingX="4" fontSize="xs" fontWeight="semibold" color="fg.muted" aria-hidden>
          {t(section.titleId)}
        </Text>
      )}
      {section.routes.map((route) => (
        <MenuEntry
          key={route.name}
          path={route.path}
          title={t(route.titleId)}
          icon={section.icon as IconName}
          active={route.name === activeName}
          collapsed={collapsed}
        />
      ))}
    </Stack>
  );
});

/** The sections: the one part of the side menu that follows the location. */
function MenuSections(props: { collapsed: boolean }) {
  const sections = useMenuSections();
  const activeName = useActiveMenuName();
  const list = useRef<HTMLDivElement>(null);
  // A page opened from elsewhere (a link, the palette, a tab) shows its entry: a long menu
  // scrolls it into view. `nearest` leaves the menu still when the entry is already visible.
  useEffect(() => {
    list.current?.querySelector('[aria-current="page"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [activeName, props.collapsed, sections]);
  return (
    <Stack gap="4" ref={list}>
      {sections.map((section) => (
        <MenuSectionView
          key={section.key}
          section={section}
          activeName={section.routes.some((r) => r.name === activeName) ? activeName : null}
          collapsed={props.collapsed}
        />
      ))}
    </Stack>
  );
}

/** The side menu (docs/domain.md §13): sections and their pages; width from settings; collapsible. */
export function SideMenu() {
  const intl = useIntl();
  const { settings } = useAppActors();
  const width = useSelector(settings, (s) => s.context.menuWidth);
  const collapsed = useSelector(settings, (s) => s.context.menuCollapse);

  return (
    <Flex
      as="nav"
      aria-label={intl.formatMessage({ id: 'shell.menu' })}
      direction="column"
      width={`${collapsed ? COLLAPSED_MENU_WIDTH : width}px`}
      flexShrink={0}
      borderEndWidth="1px"
      bg="bg.panel"
      transition="width 0.2s"
      data-testid="side-menu"
    >
      <Box flex="1" overflowY="auto" paddingY="3">
        <MenuSections collapsed={collapsed} />
      </Box>
      <Flex borderTopWidth="1px" padding="2" justify={collapsed ? 'center' : 'flex-end'}>
        <IconButton
          variant="ghost"
          size="sm"
          aria-label={intl.formatMessage({
            id: collapsed ? 'shell.expandMenu' : 'shell.collapseMenu',
          })}
          aria-expanded={!collapsed}
          onClick={() => settings.send({ type: 'TOGGLE_COLLAPSE' })}
        >
          <Icon name={collapsed ? 'expand' : 'collapse'} />
        </IconButton>
      </Flex>
    </Flex>
  );
}
