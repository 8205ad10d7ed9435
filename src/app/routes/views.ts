import { localeStore } from '../../i18n/locale-store';
import { loadMessageParts } from '../../i18n/messages';
import { view, type Lazy } from './lazy';

const exception = (code: 'Exception403' | 'Exception404' | 'Exception500') =>
  view(() => import('../../views/exception/exception-page').then((m) => ({ default: m[code] })));

/**
 * The views the entry names itself: the login page (the first page: its recipes are in the first
 * half, theme-recipes.ts; preloaded with the entry) and the exception pages. Every other route's
 * view is in page-views.ts.
 */
const batchAuthorizationView = view(() => import('../../views/matrix/batch-authorization-page'));

const FIRST: Record<string, Lazy> = {
  login: () => import('../../views/login/login-page').then((m) => ({ Component: m.default })),
  // Public too (a batch authorisation link's page): its texts are a part of their own, loaded with
  // it (the login page does not carry them).
  batchAuthorization: () =>
    Promise.all([
      batchAuthorizationView(),
      loadMessageParts(['batch-auth'], localeStore.get()),
    ]).then(([loaded]) => loaded),
  exception403: exception('Exception403'),
  exception404: exception('Exception404'),
  exception500: exception('Exception500'),
  notFound: exception('Exception404'),
};

/** The signed-in pages' views (one chunk, loaded with the session). */
export const loadPageViews = () => import('./page-views');

/** A route's lazily loaded view. */
export function viewFor(name: string): Lazy {
  return FIRST[name] ?? (() => loadPageViews().then((m) => m.pageView(name)()));
}
