import { createContext, useContext, useState, type ContextType, type ReactNode } from 'react';
import { UNSAFE_RouteContext as RouteContext } from 'react-router-dom';

type RouteContextValue = ContextType<typeof RouteContext>;

const routeIds = (value: RouteContextValue) => value.matches.map((m) => m.route.id).join(' ');

/** The page the router renders below the shell, as useOutlet() would give it. */
const PageOutletContext = createContext<ReactNode>(null);

/**
 * Around the shell: its route, kept while the routes it matches stay the same, for the shell's own
 * parts (menus, tab bar, navbar, palette). React Router hands every route a new context on each
 * router update (its `outlet` is the page below), so all that calls useNavigate or renders a
 * <Link> would re-render on every navigation, even on its start; these parts navigate to and link
 * absolute paths, and need the shell's route only for that. The page itself: usePageOutlet().
 */
export function ShellRouteContext(props: { children: ReactNode }) {
  const route = useContext(RouteContext);
  const [kept, setKept] = useState<RouteContextValue>(() => ({ ...route, outlet: null }));
  let value = kept;
  if (routeIds(kept) !== routeIds(route)) {
    value = { ...route, outlet: null };
    setKept(value);
  }
  return (
    <RouteContext.Provider value={value}>
      <PageOutletContext.Provider value={route.outlet}>{props.children}</PageOutletContext.Provider>
    </RouteContext.Provider>
  );
}

/** The page the router renders below the shell (inside ShellRouteContext). */
export function usePageOutlet(): ReactNode {
  return useContext(PageOutletContext);
}
