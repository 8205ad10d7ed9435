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
import { Center, Spinner } from '@chakra-ui/react';
import type { AppActors } from './actors-context';
import { Exception500 } from '../views/exception/exception-page';
import { guardNavigation } from './app-actors';
import { ROUTES } from './route-table';
import { ProgressBar, useNavigationProgress } from './layout/progress-bar';
import { SessionDialogs } from './session-dialogs';
import { Shell } from './shell';
import { viewFor } from './views';

function Root() {
  useNavigationProgress();
  return (
    <>
      <ProgressBar />
      <ScrollRestoration getKey={(location) => location.pathname} />
      <Outlet />
      <SessionDialogs />
    </>
  );
}

/** While the first guard decision is pending (restoring the session), a quiet spinner. */
function Hydrating() {
  const intl = useIntl();
  return (
    <Center height="100vh">
      <Spinner
        size="lg"
        color="brand.solid"
        aria-label={intl.formatMessage({ id: 'app.loading' })}
      />
    </Center>
  );
}

/** /redirect/:path re-opens a page afresh (tab reload); it is never shown as a tab. */
function RedirectView() {
  const { path = '' } = useParams();
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
      errorElement: <Exception500 />,
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
          element: <Shell />,
          children: [
            ...shellRoutes,
            {
              path: '/redirect/:path',
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
