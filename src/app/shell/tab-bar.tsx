import { Box, Flex, IconButton, Menu, Portal } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { memo, useMemo, type KeyboardEvent } from 'react';
import { useIntl } from 'react-intl';
import { useLocation, useNavigate } from 'react-router-dom';
import { Icon } from '../../components/icons';
import type { MessageId } from '../../i18n/messages';
import type { TabEntry, TabsSnapshot } from '../../machines/tabs';
import { useAppActors } from '../actors/actors-context';
import { homeRoute } from '../routes/route-table';

export function fullPathOf(location: { pathname: string; search: string }): string {
  return location.pathname + location.search;
}

interface TabHandlers {
  /** Show a tab's page (mouse or arrow keys). */
  show: (fullPath: string) => void;
  close: (fullPath: string) => void;
  /** Arrow keys and Delete on the tab at `index`. */
  keyDown: (e: KeyboardEvent<HTMLDivElement>, index: number) => void;
}

/** The selected tab's full path: the tabs actor's, else (none selected yet) the open page's. */
const selectedPath = (snapshot: TabsSnapshot, fallback: string | null) =>
  snapshot.context.active ?? fallback;

/**
 * One tab. It follows the selection itself: a switch re-renders the two tabs whose selection
 * changes, not the tab bar.
 */
const TabItem = memo(function TabItem(props: {
  tab: TabEntry;
  label: string;
  index: number;
  fallback: string | null;
  handlers: TabHandlers;
}) {
  const { tab, label, index, fallback, handlers } = props;
  const { tabs } = useAppActors();
  const selected = useSelector(tabs, (s) => selectedPath(s, fallback) === tab.fullPath);
  return (
    <Box
      role="tab"
      aria-selected={selected}
      tabIndex={selected ? 0 : -1}
      title={tab.fullPath}
      display="flex"
      alignItems="center"
      gap="1"
      paddingStart="3"
      paddingEnd="1"
      height="8"
      borderRadius="l2"
      fontSize="sm"
      cursor="pointer"
      whiteSpace="nowrap"
      bg={selected ? 'brand.subtle' : 'bg.muted'}
      color={selected ? 'brand.fg' : 'fg'}
      onClick={() => handlers.show(tab.fullPath)}
      onKeyDown={(e) => handlers.keyDown(e, index)}
    >
      {label}
      {/* Mouse shortcut; keyboard users press Delete or use the tab actions menu. */}
      <Box
        as="span"
        aria-hidden="true"
        data-testid="tab-close"
        display="inline-flex"
        borderRadius="full"
        padding="0.5"
        _hover={{ bg: 'bg.emphasized' }}
        onClick={(e) => {
          e.stopPropagation();
          handlers.close(tab.fullPath);
        }}
      >
        <Icon name="close" size={12} />
      </Box>
    </Box>
  );
});

/** The signed-in user's home page (its tab stays when others are closed); null signed out. */
function useHome(): string | null {
  const { auth } = useAppActors();
  const role = useSelector(auth, (s) => s.context.role);
  return role ? (homeRoute({ role })?.path ?? null) : null;
}

/** The tab menu's entries, on the selected tab (rendered while the menu is open). */
function TabActionItems(props: { fallback: string | null }) {
  const intl = useIntl();
  const { tabs } = useAppActors();
  const home = useHome();
  const current = useSelector(tabs, (s) => selectedPath(s, props.fallback)) ?? '';
  const closeOthers = useSelector(tabs, (s) =>
    s.can({ type: 'CLOSE_OTHERS', fullPath: current, home }),
  );
  const closeRight = useSelector(tabs, (s) =>
    s.can({ type: 'CLOSE_RIGHT', fullPath: current, home }),
  );
  return (
    <>
      <Menu.Item value="reload">{intl.formatMessage({ id: 'tabs.reload' })}</Menu.Item>
      <Menu.Item value="close">{intl.formatMessage({ id: 'tabs.close' })}</Menu.Item>
      <Menu.Item value="closeOthers" disabled={!closeOthers}>
        {intl.formatMessage({ id: 'tabs.closeOthers' })}
      </Menu.Item>
      <Menu.Item value="closeRight" disabled={!closeRight}>
        {intl.formatMessage({ id: 'tabs.closeRight' })}
      </Menu.Item>
    </>
  );
}

/**
 * The selected tab's menu: reload, close, close others, close right. It reads the selection when
 * used, so a switch does not re-render it.
 */
const TabActions = memo(function TabActions(props: { fallback: string | null }) {
  const intl = useIntl();
  const { tabs } = useAppActors();
  const navigate = useNavigate();
  const home = useHome();
  const { fallback } = props;
  const run = (action: string) => {
    const current = selectedPath(tabs.getSnapshot(), fallback);
    if (current === null) return;
    if (action === 'reload') {
      tabs.send({ type: 'RELOAD', fullPath: current });
      navigate(`/redirect/${encodeURIComponent(current.replace(/^\//, ''))}`, { replace: true });
    } else if (action === 'close') tabs.send({ type: 'CLOSE', fullPath: current });
    else if (action === 'closeOthers') tabs.send({ type: 'CLOSE_OTHERS', fullPath: current, home });
    else if (action === 'closeRight') tabs.send({ type: 'CLOSE_RIGHT', fullPath: current, home });
  };
  return (
    <Menu.Root lazyMount unmountOnExit onSelect={(d) => run(d.value)}>
      <Menu.Trigger asChild>
        <IconButton
          variant="ghost"
          size="xs"
          aria-label={intl.formatMessage({ id: 'tabs.actions' })}
        >
          <Icon name="more" />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <TabActionItems fallback={fallback} />
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
});

/** The tab bar (settings: tab bar): opened pages as tabs, with close, close others/right, reload. */
export function TabBar() {
  const intl = useIntl();
  const { tabs } = useAppActors();
  const navigate = useNavigate();
  const location = useLocation();
  const list = useSelector(tabs, (s) => s.context.tabs);
  const noneSelected = useSelector(tabs, (s) => s.context.active === null);
  const fallback = noneSelected ? fullPathOf(location) : null;

  const handlers = useMemo<TabHandlers>(() => {
    // Selecting a tab moves the selection (its kept page shows at once; useTabsFollowRoute then
    // navigates). The tab already selected is not a move: navigate to it directly.
    const show = (fullPath: string) => {
      if (fullPath === tabs.getSnapshot().context.active) navigate(fullPath);
      else tabs.send({ type: 'SELECT', fullPath });
    };
    const close = (fullPath: string) => tabs.send({ type: 'CLOSE', fullPath });
    // Focus follows the keyboard (WAI-ARIA tabs): else the next arrow starts again from the old tab.
    const focusTab = (from: HTMLElement, fullPath: string | null) => {
      const at = tabs.getSnapshot().context.tabs.findIndex((entry) => entry.fullPath === fullPath);
      (from.parentElement?.children[at] as HTMLElement | undefined)?.focus();
    };
    const keyDown = (e: KeyboardEvent<HTMLDivElement>, index: number) => {
      const open = tabs.getSnapshot().context.tabs;
      const move = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (move) {
        const next = open[(index + move + open.length) % open.length];
        if (next) {
          show(next.fullPath);
          focusTab(e.currentTarget, next.fullPath);
        }
        e.preventDefault();
      } else if (e.key === 'Delete') {
        close(open[index].fullPath);
        focusTab(e.currentTarget, tabs.getSnapshot().context.active);
        e.preventDefault();
      }
    };
    return { show, close, keyDown };
  }, [tabs, navigate]);

  return (
    <Flex align="center" gap="2" paddingX="3" paddingY="1" borderBottomWidth="1px" bg="bg.panel">
      <Flex
        role="tablist"
        aria-label={intl.formatMessage({ id: 'tabs.label' })}
        gap="1"
        flex="1"
        overflowX="auto"
        data-testid="tab-bar"
      >
        {list.map((tab, index) => (
          <TabItem
            key={tab.fullPath}
            tab={tab}
            label={intl.formatMessage({ id: tab.title as MessageId })}
            index={index}
            fallback={fallback}
            handlers={handlers}
          />
        ))}
      </Flex>
      <TabActions fallback={fallback} />
    </Flex>
  );
}
