import { useSelector } from '@xstate/react';
import { useCallback, useContext, useEffect, useRef } from 'react';
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  useLocation,
  useNavigate,
} from 'react-router-dom';
import type { TabEntry } from '../../machines/tabs';
import { useAppActors } from '../actors/actors-context';
import { matchRoute } from '../routes/route-table';
import { fullPathOf } from './tab-bar';

/**
 * Runs `run` once the next frame is painted (a task after that frame's animation callbacks), or
 * after 100 ms should no frame come (a hidden document). Returns a cancel.
 */
function afterNextPaint(run: () => void): () => void {
  let timer = 0;
  const cancel = () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    clearTimeout(fallback);
  };
  const go = () => {
    cancel();
    run();
  };
  const frame = requestAnimationFrame(() => {
    timer = window.setTimeout(go);
  });
  const fallback = window.setTimeout(go, 100);
  return cancel;
}

/**
 * Opens the current page as a tab, and follows the tabs actor when its selection moves (a tab
 * picked, a close): the keep-alive outlet shows a kept page at once; this brings the router along.
 */
export function useTabsFollowRoute() {
  const { tabs } = useAppActors();
  const location = useLocation();
  const navigate = useNavigate();
  const fullPath = fullPathOf(location);
  const active = useSelector(tabs, (s) => s.context.active);
  const count = useSelector(tabs, (s) => s.context.tabs.length);

  // Every navigation, even to the open page (location.key): a selection made while it was under
  // way goes back to the page the router ends on.
  useEffect(() => {
    const route = matchRoute(location.pathname);
    if (route.noTab || !route.requiresAuth || !route.group) return;
    const entry: TabEntry = {
      title: route.titleId,
      name: route.name,
      fullPath,
      query: Object.fromEntries(new URLSearchParams(location.search)),
      ignoreCache: Boolean(route.ignoreCache),
    };
    tabs.send({ type: 'OPEN', tab: entry });
  }, [tabs, fullPath, location.pathname, location.search, location.key]);

  // The selection moved: to its page (or home when no tab is left). The router's navigation (guard,
  // menus, title) starts once the frame showing the kept page is painted, so it never holds that
  // frame back; the URL follows a frame later.
  const lastActive = useRef(active);
  const pending = useRef<(() => void) | null>(null);
  const cancelPending = useCallback(() => {
    pending.current?.();
    pending.current = null;
  }, []);
  const router = useContext(DataRouterContext)?.router;
  // Where this hook last sent the router to follow the selection (null once it got there).
  const following = useRef<string | null>(null);
  useEffect(() => {
    if (active === lastActive.current) return;
    lastActive.current = active;
    cancelPending();
    const underWay = router?.state.navigation;
    if (active === null && count === 0) navigate('/');
    else if (active !== null && active === fullPath) {
      // Back to the page shown while the router is still on its way to the tab selected before
      // (an arrow key, then Delete at once): go back, or its late arrival would open that tab again.
      if (
        underWay?.location &&
        following.current !== null &&
        fullPathOf(underWay.location) === following.current
      ) {
        following.current = active;
        void navigate(active, { replace: true });
      }
    } else if (active !== null) {
      pending.current = afterNextPaint(() => {
        pending.current = null;
        // A navigation started since (a menu click, back): the router goes where it goes.
        const now = router?.state.navigation;
        if (now && now.state !== 'idle' && now.location !== underWay?.location) return;
        following.current = active;
        void navigate(active);
      });
    }
  }, [active, count, fullPath, navigate, cancelPending, router]);
  // The router moved first (menu, address bar, back, a redirect): a selection not yet followed
  // is dropped, the router's page is the one shown.
  useEffect(() => {
    if (following.current === fullPath) following.current = null;
    return cancelPending;
  }, [location.key, fullPath, cancelPending]);
}
