import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import {
  Outlet,
  ScrollRestoration,
  createBrowserRouter,
  redirect,
  useParams,
  Navigate,
  type LoaderFunctionArgs,
  type RouteObject,
} from 'react-router-dom';
import { Center } from '@chakra-ui/react';
import { LoadingSpinner } from '../../components/loading-spinner';
import { useAppActors, type AppActors } from '../actors/actors-context';
import { guardNavigation } from '../actors/app-actors';
import { markFirstPageCommitted, useFirstPagePainted } from '../boot/first-paint';
import { withLaterTheme } from './lazy';
import { takeOverPrerender } from '../boot/prerender-handover';
import { ROUTES } from './route-table';
import { ProgressBar, useNavigationProgress } from '../shell/progress-bar';
import { loadPageViews, viewFor } from './views';
import { loadSignedInMessages } from '../../i18n/messages';
import { localeStore } from '../../i18n/locale-store';

// Loaded when a page needs them, not with the login page: the shell (menus, tab bar, drawer,
// palette) with the first signed-in page, the exception page when a route fails.
const loadShell = withLaterTheme(() =>
  import('../shell/shell').then((m) => ({ Component: m.Shell })),
);
// The session dialogs (zag's dialog machine) load once the first page has painted.
const SessionDialogs = lazy(
  withLaterTheme(() =>
    import('../shell/session-dialogs').then((m) => ({ default: m.SessionDialogs })),
  ),
);
const Exception500 = lazy(
  withLaterTheme(() =>
    import('../../views/exception/exception-page').then((m) => ({ default: m.Exception500 })),
  ),
);

function Root() {
  useNavigationProgress();
  // Another page than login came first: the pre-rendered login page (login.html) goes.
  useLayoutEffect(() => void takeOverPrerender(null), []);
  useEffect(markFirstPageCommitted, []);
  // The session dialogs (docs/domain.md §15) are about a session: they load once the first page has painted
  // and there is a session to confirm or expire (never on a signed-out visitor's login page).
  const painted = useFirstPagePainted();
  const { auth } = useAppActors();
  const inSession = useSelector(auth, (s) => !s.matches('signedOut') && !s.hasTag('authPending'));
  const [dialogsWanted, setDialogsWanted] = useState(false);
  if (painted && inSession && !dialogsWanted) setDialogsWanted(true); // then kept mounted
  return (
    <>
      <ProgressBar />
      <ScrollRestoration getKey={(location) => location.pathname} />
      <Outlet />
      {dialogsWanted && (
        <Suspense>
          <SessionDialogs />
        </Suspense>
      )}
    </>
  );
}

function RouteError() {
  useLayoutEffect(() => void takeOverPrerender(null), []);
  useEffect(markFirstPageCommitted, []);
  return (
    <Suspense>
      <Exception500 />
    </Suspense>
  );
}

/** While the first guard decision is pending (restoring the session), a quiet spinner. */
function Hydrating() {
  const intl = useIntl();
  return (
    <Center height="100vh">
      <LoadingSpinner
        size="lg"
        color="brand.solid"
        label={intl.formatMessage({ id: 'app.loading' })}
      />
    </Center>
  );
}

/**
 * /redirect/:path re-opens a page afresh (tab reload); it is never shown as a tab. The path may
 * be one encoded segment (`home%2Findex`) or plain segments (`home/index`): the router matches
 * a splat so both reach here.
 */
function RedirectView() {
  const { '*': path = '' } = useParams();
  return <Navigate to={`/${decodeURIComponent(path).replace(/^\/+/, '')}`} replace />;
}

/** Left a session (logout, expiry): not the start-up check or a failed login, which the guard handles. */
function wasInSession(snapshot: ReturnType<AppActors['auth']['getSnapshot']>): boolean {
  return (
    !snapshot.matches('signedOut') &&
    !snapshot.matches('signingIn') &&
    !snapshot.hasTag('authPending')
  );
}

export function createAppRouter(actors: AppActors) {
  async function guard({ request }: LoaderFunctionArgs) {
    const url = new URL(request.url);
    // The shell's actors (menu, settings, tabs) and the signed-in pages' messages come with a
    // session, never with a signed-out visitor's login page (tests/e2e/bundle.spec.ts).
    if (actors.auth.getSnapshot().context.tokenKind !== null || url.pathname !== '/login') {
      await Promise.all([
        actors.loadShell(),
        loadSignedInMessages(localeStore.get()),
        loadPageViews(),
      ]);
    }
    const decision = await guardNavigation(actors, { pathname: url.pathname, search: url.search });
    if (decision.type === 'redirect') throw redirect(decision.to);
    return null;
  }

  const shellRoutes: RouteObject[] = ROUTES.filter((r) => r.requiresAuth && r.group).map((r) => ({
    path: r.path,
    handle: { name: r.name, titleId: r.titleId },
    lazy: viewFor(r.name),
  }));

  const routes: RouteObject[] = [
    {
      id: 'root',
      element: <Root />,
      loader: guard,
      shouldRevalidate: () => true,
      hydrateFallbackElement: <Hydrating />,
      errorElement: <RouteError />,
      children: [
        {
          path: '/login',
          handle: { name: 'login', titleId: 'route.login' },
          lazy: viewFor('login'),
        },
        {
          path: '/batchAuthorization',
          handle: { name: 'batchAuthorization', titleId: 'route.batchAuthorization' },
          lazy: viewFor('batchAuthorization'),
        },
        {
          lazy: loadShell,
          children: [
            ...shellRoutes,
            {
              path: '/redirect/*',
              handle: { name: 'redirect', titleId: 'route.redirect' },
              element: <RedirectView />,
            },
            {
              path: '*',
              handle: { name: 'notFound', titleId: 'route.notFound' },
              lazy: viewFor('notFound'),
            },
          ],
        },
      ],
    },
  ];

  const router = createBrowserRouter(routes);

  // Loaders run only on navigation: follow the auth actor so a login or logout moves the page.
  let previous = actors.auth.getSnapshot();
  actors.auth.subscribe((snapshot) => {
    const { pathname, search } = router.state.location;
    if (snapshot.hasTag('signedIn') && !previous.hasTag('signedIn') && pathname === '/login') {
      const back = new URLSearchParams(search).get('redirect');
      const safe = back && back.startsWith('/') && !back.startsWith('//');
      void router.navigate(safe ? back : '/', { replace: true });
    } else if (snapshot.matches('signedOut') && wasInSession(previous) && pathname !== '/login') {
      void router.navigate('/login', { replace: true });
    }
    previous = snapshot;
  });
  return router;
}
