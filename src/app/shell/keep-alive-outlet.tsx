import { useSelector } from '@xstate/react';
import {
  Activity,
  memo,
  useContext,
  useLayoutEffect,
  useRef,
  useState,
  type ContextType,
  type ReactNode,
} from 'react';
import {
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_LocationContext as LocationContext,
} from 'react-router-dom';
import { useAppActors } from '../actors/actors-context';
import { usePageOutlet } from './shell-route-context';
import { fullPathOf } from './tab-bar';

/**
 * A page kept alive, and the router as it was when the page was last at the location with no
 * navigation under way: what it sees while it is not at the location (hidden, or shown ahead).
 */
interface KeptPage {
  element: ReactNode;
  /** The routes and paths it matched: while they stay, the router's new element is the same page. */
  matched: string | null;
  location: ContextType<typeof LocationContext>;
  state: ContextType<typeof DataRouterStateContext>;
}

const matchedOf = (state: ContextType<typeof DataRouterStateContext>) =>
  state && state.matches.map((m) => `${m.route.id} ${m.pathname}`).join('\n');

/** A kept page under the router it sees. Memoised: a hidden page is not rendered again. */
const KeptPageView = memo(function KeptPageView(props: Omit<KeptPage, 'matched'>) {
  return (
    <LocationContext.Provider value={props.location}>
      <DataRouterStateContext.Provider value={props.state}>
        {props.element}
      </DataRouterStateContext.Provider>
    </LocationContext.Provider>
  );
});

/**
 * The tab the tabs actor selected while the location stayed where it was (a tab was clicked, a
 * close moved the selection), until the router moves; null when the location moved last.
 */
function useSelectionAhead(locationKey: string, active: string | null): string | null {
  const [seen, setSeen] = useState({ locationKey, active, ahead: null as string | null });
  if (seen.locationKey === locationKey && seen.active === active) return seen.ahead;
  // Adjusting state while rendering (React's documented pattern): no render shows a stale page.
  const ahead = seen.locationKey === locationKey ? active : null;
  setSeen({ locationKey, active, ahead });
  return ahead;
}

/**
 * The open page, and with the tab bar on, the pages of the cache list kept alive behind it in
 * hidden <Activity> boundaries: switching tabs shows them again with their state and without
 * refetching. Pages not in the cache list (closed, reloaded, ignoreCache) render afresh.
 *
 * A tab picked in the tab bar is shown at once, in the same render as the tab bar's selection (a
 * synchronous store update, not a router transition): the router's navigation to it (guard,
 * matches, the shell) follows and changes nothing visible when it arrives. Each kept page sees the
 * router as it was when it was last at the location, so a hidden page neither re-renders on every
 * navigation nor reads another page's location, and one shown ahead of the router reads its own.
 * `onShowAhead` runs when a page is shown ahead of the router (the shell resets the scroll then).
 */
export function KeepAliveOutlet(props: { onShowAhead?: () => void }) {
  const { settings, tabs } = useAppActors();
  const tabBar = useSelector(settings, (s) => s.context.tabBar);
  const cacheList = useSelector(tabs, (s) => s.context.cacheList);
  const active = useSelector(tabs, (s) => s.context.active);
  const outlet = usePageOutlet();
  const location = useContext(LocationContext);
  const state = useContext(DataRouterStateContext);
  const key = fullPathOf(location.location);
  const ahead = useSelectionAhead(location.location.key, active);
  const cache = useRef(new Map<string, KeptPage>());
  const kept = cache.current;
  const shown = tabBar && ahead !== null && ahead !== key && kept.has(ahead) ? ahead : null;

  const { onShowAhead } = props;
  useLayoutEffect(() => {
    if (shown !== null) onShowAhead?.();
  }, [shown, onShowAhead]);

  if (!tabBar) {
    kept.clear();
    return outlet;
  }
  if (outlet) {
    // The router renders its page element afresh on every update (a navigation starting, one
    // arriving at the page already shown): the same page keeps its element and does not re-render.
    const matched = matchedOf(state);
    const was = kept.get(key);
    const same = matched !== null && was?.matched === matched;
    const settled = !state || state.navigation.state === 'idle' || !was;
    kept.set(key, {
      element: same ? was.element : outlet,
      matched,
      location,
      state: settled ? state : was.state,
    });
  }
  const visible = shown ?? key;
  for (const cached of [...kept.keys()]) {
    if (cached !== key && cached !== visible && !cacheList.includes(cached)) kept.delete(cached);
  }
  return (
    <>
      {[...kept.entries()].map(([path, page]) => (
        <Activity key={path} mode={path === visible ? 'visible' : 'hidden'}>
          <KeptPageView
            element={page.element}
            location={path === key ? location : page.location}
            state={path === key ? state : page.state}
          />
        </Activity>
      ))}
    </>
  );
}
