/**
 * The auth flow through the real UI against a hand-written oracle (auth-oracle.ts): the machine's
 * shortest paths only propose event sequences; each step is a person's action on the login page,
 * the session dialogs, the user menu or /user/setting, or an endpoint settling at the HTTP
 * boundary, and the state expected after it comes from the oracle's table.
 *
 * The paths of each start run in a file of their own (auth-view-*.test.tsx: a file stays under a
 * minute); each such file replaces the HTTP layer's `configureHttp` (auth-http-hooks.ts) first.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { EventPath } from './ui-paths';
import { getShortestPaths } from 'xstate/graph';
import { httpHooks } from './auth-http-hooks';
import { createAppActors, type AppActors } from '../../src/app/actors/app-actors';
import { createShellActors } from '../../src/app/actors/shell-actors';
import { guardNavigation } from '../../src/app/actors/app-actors';
import { removeAllNotices } from '../../src/components/toaster';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { authMachine, type AuthEvent, type AuthSnapshot } from '../../src/machines/auth';
import type { TokenKind } from '../../src/machines/auth';
import { AUTH_EFFECTS, AUTH_TRANSITIONS } from './auth-oracle';
import {
  ADMIN,
  LOCAL_TOKEN,
  MERCHANT,
  SESSION_TOKEN,
  eventsFor,
  serialize,
  stateKey,
} from './auth-model';
import { loginReply, replyError } from './fixtures';
import {
  coverRows,
  fakeEndpoints,
  pathName,
  person,
  rowsTaken,
  runUiPath,
  withoutPrefixes,
} from './ui-paths';
import { BRANDING, renderAt } from './view-harness';
import { SessionDialogs } from '../../src/app/shell/session-dialogs';
import { UserMenu } from '../../src/app/shell/user-menu';
import LoginPage from '../../src/views/login/login-page';
import UserSettingPage from '../../src/views/user/user-setting-page';

const text = (id: MessageId) => enUS[id];
const REFUSED = 'Wrong account or password';
const NOT_YOURS = 'Not your merchant';
const USER_INFO_GONE = 'Session gone';

interface World {
  actors: AppActors;
  endpoints: ReturnType<typeof fakeEndpoints>;
  effects: string[];
  tokens: { local: string | null; session: string | null };
  storage: EventTarget;
}

function makeWorld(start: TokenKind | null): World {
  const endpoints = fakeEndpoints();
  const effects: string[] = [];
  const tokens = {
    local: start === 'local' ? LOCAL_TOKEN : null,
    session: start === 'session' ? SESSION_TOKEN : null,
  };
  const storage = new EventTarget();
  const never = () => new Promise<never>(() => {});
  const memory = () => ({ read: () => null, write: () => {} });
  const actors = createAppActors({
    // The shell's actors at once, as if their module had loaded with the session.
    createShellActors,
    api: {
      login: endpoints.endpoint('login'),
      logout: endpoints.endpoint('logout'),
      getUserInfo: endpoints.endpoint('getUserInfo'),
      overstepLogin: endpoints.endpoint('overstepLogin'),
      getUserMenu: never,
      getSystemInfo: async () => BRANDING,
    },
    accountApi: {
      getCaptcha: never,
      register: never,
      resetPwd: never,
      editProfile: endpoints.endpoint('editProfile'),
      changePwd: endpoints.endpoint('changePwd'),
    },
    tokens: {
      kind: () => (tokens.session ? 'session' : tokens.local ? 'local' : null),
      setLocal: (t) => {
        tokens.local = t;
        effects.push(`store:local:${t}`);
      },
      setSession: (t) => {
        tokens.session = t;
        effects.push(`store:session:${t}`);
      },
      clear: (kind) => {
        if (kind !== 'session') tokens.local = null;
        if (kind !== 'local') tokens.session = null;
        effects.push(`clear:${kind ?? 'all'}`);
      },
    },
    reload: () => effects.push('reload'),
    closeWindow: () => effects.push('close window'),
    notify: () => {},
    locale: () => 'en-US',
    domain: () => 'localhost',
    applyBranding: () => {},
    storageEvents: storage,
    layoutStore: memory(),
    tabStore: memory(),
    applyTheme: () => {},
    applyColorWeak: () => {},
  });
  // What a logout clears besides the token (docs/domain.md §14): the tabs and the server menu.
  const tabsSend = actors.tabs.send.bind(actors.tabs);
  actors.tabs.send = (event) => {
    if (event.type === 'RESET') effects.push('tabs reset');
    tabsSend(event);
  };
  const menuSend = actors.menu.send.bind(actors.menu);
  actors.menu.send = (event) => {
    if (event.type === 'CLEAR') effects.push('menu cleared');
    menuSend(event);
  };
  return { actors, endpoints, effects, tokens, storage };
}

/** The table's name for the state the auth actor is in. */
function actualState(s: AuthSnapshot): string {
  const tab = s.context.tokenKind === 'session' ? ' (overstep tab)' : '';
  const { error, overstepFailed, reloadAfterLogout } = s.context;
  switch (stateKey(s.value)) {
    case 'signedIn.active.idle':
      return `signedIn${tab}`;
    case 'signedIn.active.refreshing':
      return `refreshing${tab}`;
    case 'signedIn.confirmingLogout':
      return `confirmingLogout${tab}`;
    case 'loadingUser':
      return `loadingUser${tab}`;
    case 'loggingOut':
      if (error) return 'loggingOut, user info failed';
      return `loggingOut${reloadAfterLogout ? ', reload' : ''}${tab}`;
    case 'signedOut':
      if (overstepFailed) return 'signedOut, overstep failed';
      if (error === REFUSED) return 'signedOut, login refused';
      if (error) return 'signedOut, user info failed';
      return reloadAfterLogout ? 'signedOut, reloaded' : 'signedOut';
    default:
      return stateKey(s.value);
  }
}

const ADA = { ...ADMIN, nickname: 'Ada' };
const MONA = { ...MERCHANT, nickname: 'Mona' };
const CREDENTIALS = { account: 'admin', password: 'Demo@2026' };
const NEW_PASSWORD = 'Fresh@2027x';

/** Which name the navbar shows where a user is known (the last user-info reply). */
const NAMED = /^(signedIn|refreshing|confirmingLogout|expiring)/;

function sees(world: World, state: string, shownName: () => string) {
  const { tokens } = world;
  return async () => {
    const signingIn = state === 'signingIn';
    const submit = screen.getByRole('button', {
      name: text(signingIn ? 'login.submitting' : 'login.submit'),
    });
    expect(submit.getAttribute('aria-busy')).toBe(String(signingIn));
    // The login form says why the last try failed.
    const reason: Record<string, string> = {
      'signedOut, login refused': REFUSED,
      'signedOut, overstep failed': NOT_YOURS,
      'signedOut, user info failed': USER_INFO_GONE,
    };
    for (const [where, message] of Object.entries(reason))
      expect(screen.queryByText(message) !== null, message).toBe(where === state);

    const menu = screen.getByRole('button', { name: /^User menu of/ });
    if (state.startsWith('signedOut')) expect(menu.textContent).toBe('');
    if (NAMED.test(state)) expect(menu.textContent).toContain(shownName());

    const dialogs = screen
      .queryAllByRole('alertdialog')
      .filter((d) => d.getAttribute('data-state') === 'open');
    const dialog: Partial<Record<string, [MessageId, MessageId[]]>> = {
      confirmingLogout: ['session.confirmLogoutTitle', ['session.stay', 'session.relogin']],
      sessionExpired: ['session.expiredTitle', ['session.confirm']],
    };
    const wanted = dialog[state.replace(' (overstep tab)', '')];
    expect(dialogs).toHaveLength(wanted ? 1 : 0);
    if (wanted) {
      within(dialogs[0]).getByRole('heading', { name: text(wanted[0]) });
      const buttons = within(dialogs[0])
        .getAllByRole('button')
        .map((b) => b.textContent);
      expect(buttons).toEqual(wanted[1].map(text));
    }
    // (A closing toast stays in the DOM for its exit animation: only its presence is checked.)
    if (state === 'expiring') screen.getByText(text('http.loginExpired'));

    // Signed out leaves no overstep token; a refused login no local one either. (A tab that
    // stepped in from a local login keeps that login for the console's other tabs.)
    if (state.startsWith('signedOut')) expect(tokens.session).toBeNull();
    if (state === 'signedOut, login refused') expect(tokens.local).toBeNull();
    if (state.endsWith('(overstep tab)')) expect(tokens.session).toBe(SESSION_TOKEN);
  };
}

async function fill(form: HTMLElement, label: string, value: string, user = person()) {
  // A required field's label ends with an asterisk.
  const input = within(form).getByLabelText(new RegExp(`^${label}\\*?$`), { selector: 'input' });
  await user.clear(input);
  await user.type(input, value);
}

function executor(world: World, shown: { name: string }) {
  const { actors, endpoints, storage } = world;
  const user = person();
  const click = (name: string, root: HTMLElement = document.body) =>
    user.click(within(root).getByRole('button', { name }));
  const openDialog = () =>
    screen.getAllByRole('alertdialog').find((d) => d.getAttribute('data-state') === 'open')!;
  const userReply = () => (world.tokens.session ? MONA : ADA);
  const replies: Record<string, [string, unknown, unknown]> = {
    loadUser: ['getUserInfo', null, replyError(USER_INFO_GONE, 'unauthorized')],
    refreshUser: ['getUserInfo', null, replyError('Busy')],
    login: ['login', loginReply(LOCAL_TOKEN, ADA), replyError(REFUSED)],
    overstep: ['overstepLogin', loginReply(SESSION_TOKEN, MONA), replyError(NOT_YOURS)],
    logout: ['logout', null, replyError('Login expired', 'unauthorized')],
  };
  const settleCall = async (outcome: 'done' | 'error', id: string) => {
    const [name, done, error] = replies[id];
    let value = done;
    if (name === 'getUserInfo') {
      const reply = id === 'refreshUser' ? { ...userReply(), nickname: 'Renamed' } : userReply();
      value = reply;
      if (outcome === 'done') shown.name = reply.nickname;
    }
    await endpoints.settle(name, outcome, outcome === 'done' ? value : error);
  };

  return async (event: AuthEvent | { type: string }) => {
    const settled = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
    if (settled) return settleCall(settled[1] as 'done' | 'error', settled[2]);
    if (event.type.startsWith('xstate.after.')) {
      // The 'login expired' message shows for 1.5 s (docs/domain.md §15), not a moment less.
      await vi.advanceTimersByTimeAsync(1499);
      expect(screen.queryByText(text('http.loginExpired'))).not.toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      return;
    }
    const form = (title: MessageId) => screen.getByRole('form', { name: text(title) });
    switch (event.type) {
      case 'LOGIN': {
        const login = form('login.title');
        await fill(login, text('form.account'), CREDENTIALS.account, user);
        await fill(login, text('form.password'), CREDENTIALS.password, user);
        return click(text('login.submit'), login);
      }
      case 'LOGOUT': {
        // By keyboard: zag's menu ignores user-event's pointer on items in jsdom.
        screen.getByRole('button', { name: `User menu of ${shown.name}` }).focus();
        await user.keyboard('{Enter}');
        await vi.advanceTimersByTimeAsync(100);
        await user.keyboard('{End}');
        await vi.advanceTimersByTimeAsync(100);
        const item = screen.getByRole('menuitem', { name: text('shell.logout') });
        expect(item.hasAttribute('data-highlighted')).toBe(true);
        return user.keyboard('{Enter}');
      }
      case 'OVERSTEP':
        void guardNavigation(actors, {
          pathname: '/home/index',
          search: '?login_type=1&merchant_id=5',
        });
        return;
      case 'SERVER_LOGOUT':
        return httpHooks.serverLogout!(50008);
      case 'SESSION_EXPIRED':
        return httpHooks.unauthorized!({ hadSessionToken: world.tokens.session !== null });
      case 'STAY':
        return click(text('session.stay'), openDialog());
      case 'RELOGIN':
        return click(text('session.relogin'), openDialog());
      case 'CONFIRM':
        return click(text('session.confirm'), openDialog());
      case 'EXTERNAL_LOGOUT':
        storage.dispatchEvent(
          Object.assign(new Event('storage'), { key: 'token', newValue: null }),
        );
        return;
      case 'REFRESH_USER':
        await click(text('form.save'), form('profile.title'));
        return endpoints.settle('editProfile', 'done', null);
      case 'SIGNED_OUT_BY_SERVER': {
        const password = form('password.title');
        await fill(password, text('form.oldPassword'), CREDENTIALS.password, user);
        await fill(password, text('form.newPassword'), NEW_PASSWORD, user);
        await fill(password, text('form.confirmPassword'), NEW_PASSWORD, user);
        await click(text('password.submit'), password);
        return endpoints.settle('changePwd', 'done', null);
      }
      default:
        throw new Error(`no way to carry out ${event.type}`);
    }
  };
}

/** The events a person or an endpoint can bring about in a state (no menu behind a modal). */
function eventsAt(snapshot: AuthSnapshot) {
  const behindModal = ['LOGOUT', 'OVERSTEP', 'REFRESH_USER', 'SIGNED_OUT_BY_SERVER'];
  const modal = snapshot.matches({ signedIn: 'confirmingLogout' });
  return eventsFor(snapshot).filter((e) => !(modal && behindModal.includes(e.type)));
}

type Start = 'no token' | 'a local-storage token' | 'an overstep token';
const STARTS: { stored: Start; tokenKind: TokenKind | null; initial: string }[] = [
  { stored: 'no token', tokenKind: null, initial: 'signedOut' },
  { stored: 'a local-storage token', tokenKind: 'local', initial: 'loadingUser' },
  { stored: 'an overstep token', tokenKind: 'session', initial: 'loadingUser (overstep tab)' },
];

/** The paths run from one start: the machine's shortest paths, plus one per row they miss. */
function pathsFrom({ tokenKind, initial }: (typeof STARTS)[number]) {
  return withoutPrefixes(
    coverRows(
      getShortestPaths(authMachine, {
        input: { tokenKind },
        events: eventsAt,
        serializeState: (state, event) => serialize(state, event),
      }),
      { initial, transitions: AUTH_TRANSITIONS },
    ),
  );
}

/** The table's rows the three starts' paths take together (each runs in its own file). */
export function rowsNotTaken(): string[] {
  const taken = new Set(
    STARTS.flatMap((start) => [
      ...rowsTaken(pathsFrom(start) as EventPath[], {
        initial: start.initial,
        transitions: AUTH_TRANSITIONS,
      }),
    ]),
  );
  return Object.keys(AUTH_TRANSITIONS).filter((row) => !taken.has(row));
}

/** A world, with the views the paths act on rendered: the navbar's user menu, login, settings. */
function renderWorld(start: TokenKind | null): World {
  const world = makeWorld(start);
  renderAt(
    world.actors,
    <>
      <UserMenu />
      <LoginPage />
      <SessionDialogs />
      <UserSettingPage />
    </>,
  );
  return world;
}

/** Registers the paths from one start as tests, with the hooks they need. */
export function sessionPaths(stored: Start): void {
  const start = STARTS.find((s) => s.stored === stored)!;
  const { tokenKind, initial } = start;
  // The toaster loads with the first notice: loaded once up front.
  beforeAll(async () => {
    await import('../../src/components/toaster-store');
    await import('../../src/app/theme/theme-later');
    await import('../../src/components/app-toaster');
  });
  beforeEach(() => {
    vi.useFakeTimers();
    localeStore.set('en-US');
    localStorage.clear();
  });
  afterEach(() => {
    cleanup();
    removeAllNotices();
    vi.useRealTimers();
  });

  describe(`the session, starting with ${stored}`, () => {
    test.each(pathsFrom(start).map((path) => [pathName(path), path] as const))(
      '%s',
      async (_, path) => {
        const world = renderWorld(tokenKind);
        const shown = { name: '' };
        await runUiPath(path, {
          initial,
          transitions: AUTH_TRANSITIONS,
          exec: executor(world, shown),
          sees: Object.fromEntries(
            [...new Set([initial, ...Object.values(AUTH_TRANSITIONS)])].map((state) => [
              state,
              sees(world, state, () => shown.name),
            ]),
          ),
          actual: () => actualState(world.actors.auth.getSnapshot()),
          effects: { take: () => world.effects.splice(0), expected: AUTH_EFFECTS },
        });
        world.actors.dispose();
      },
      90_000,
    );
  });
}

// The paths press the Stay button; Escape closes the "Confirm logout" dialog through its own
// handler, which must stay too (a mutation of that handler survived the paths).
export async function escapeStaysSignedIn(): Promise<void> {
  const world = renderWorld('local');
  const exec = executor(world, { name: '' });
  await exec({ type: 'xstate.done.actor.loadUser' });
  await exec({ type: 'SERVER_LOGOUT' });
  expect(world.actors.auth.getSnapshot().matches({ signedIn: 'confirmingLogout' })).toBe(true);
  // The dialog's layer listens for Escape once it has opened (a frame later).
  await vi.advanceTimersByTimeAsync(100);
  await person().keyboard('{Escape}');
  await vi.advanceTimersByTimeAsync(100);
  expect(world.actors.auth.getSnapshot().matches({ signedIn: 'confirmingLogout' })).toBe(false);
  expect(world.actors.auth.getSnapshot().matches('signedIn')).toBe(true);
  expect(world.effects.splice(0)).not.toContain('reload');
  world.actors.dispose();
}
