/**
 * The public page of a batch authorisation link (/batchAuthorization?token=…), driven as the
 * account's owner would, against a hand-written oracle: the page's machine
 * (src/machines/batch-authorization.ts) only proposes event sequences (the address opened, the
 * link's info answered in each state or refused, Authorise, the platform's address answered or
 * refused); each step is the page rendered at an address, a fake endpoint settling or a click, and
 * what the person sees after it is checked from the table below, never from the machine. Beside
 * it: the console's text of every refusal id the platform's return may carry (never the raw id),
 * and the route open to a signed-out and a signed-in visitor alike.
 */
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { BatchLinkInfo } from '../../src/api/contract/matrix';
import { guardNavigation } from '../../src/app/actors/app-actors';
import { provideArea } from '../../src/app/actors/areas';
import { batchAuthorizationArea } from '../../src/app/actors/batch-authorization';
import { Providers } from '../../src/app/boot/providers';
import { viewFor } from '../../src/app/routes/views';
import type { MessageId } from '../../src/i18n/en-US';
import { fill, text } from './messages';
import {
  batchAuthorizationMachine,
  RETURN_ERRORS,
  type BatchAuthorizationEvent,
} from '../../src/machines/batch-authorization';
import BatchAuthorizationPage from '../../src/views/matrix/batch-authorization-page';
import { replyError } from './fixtures';
import { fakeEndpoints, person, settle, uiPaths, viewPathHooks, type EventPath } from './ui-paths';
import { shopAuth } from './video-task-fixtures';
import { appActors, BRANDING } from './view-harness';

const TOKEN = 'tok-abcdefghijklmnopqrstuvwx';
const AUTH_URL = 'https://open.douyin.example/auth?state=batch-1';
const REFUSAL = 'This authorisation link is not valid';
const info = (over: Partial<BatchLinkInfo> = {}): BatchLinkInfo => ({
  owner_name: 'Brand Shop',
  platform: 'douyin',
  state: 'valid',
  expires_at: Date.UTC(2026, 11, 3, 9, 30),
  uses_left: 3,
  ...over,
});

viewPathHooks();

/** A visitor (signed out unless `signedIn`) on the page at `search`, with fake endpoints. */
function world(signedIn = false) {
  const endpoints = fakeEndpoints();
  const actors = appActors(signedIn ? { auth: shopAuth() } : {});
  const navigations: string[] = [];
  provideArea(actors, batchAuthorizationArea, {
    getInfo: endpoints.endpoint('getInfo') as never,
    getAuthUrl: endpoints.endpoint('getAuthUrl') as never,
    navigate: (url) => navigations.push(url),
  });
  let router: ReturnType<typeof createMemoryRouter> | null = null;
  const user = person();
  return {
    endpoints,
    navigations,
    user,
    async open(search: string) {
      router = createMemoryRouter([{ path: '*', element: <BatchAuthorizationPage /> }], {
        initialEntries: [`/batchAuthorization${search}`],
      });
      render(
        <Providers actors={actors}>
          <RouterProvider router={router} />
        </Providers>,
      );
      await vi.waitFor(() => screen.getByRole('heading', { name: text('batchAuth.title') }), {
        timeout: 5000,
      });
      await settle();
    },
    search: () => router?.state.location.search ?? '',
    authorise: () =>
      screen.queryByRole('button', {
        name: fill('batchAuth.authorise', { platform: text('batchAuth.platformDouyin') }),
      }) as HTMLButtonElement | null,
    alert: () => screen.queryByRole('alert'),
    dispose: () => actors.dispose(),
  };
}
type World = ReturnType<typeof world>;
type Event = BatchAuthorizationEvent;

const label = (e: Event): string => {
  if (e.type === 'OPEN') {
    if (!e.token) return 'OPEN no token';
    if (e.bound) return 'OPEN bound';
    return e.error ? 'OPEN error' : 'OPEN';
  }
  const type: string = e.type;
  if (type === 'xstate.done.actor.info') {
    return `done.info ${(e as unknown as { output: BatchLinkInfo }).output.state}`;
  }
  return type.replace(/^xstate\./, '').replace('.actor', '');
};

const TABLE: Record<string, string> = {
  'idle OPEN': 'loading',
  'idle OPEN no token': 'no token',
  'loading done.info valid': 'ready',
  'loading done.info expired': 'expired',
  'loading done.info revoked': 'revoked',
  'loading done.info used_up': 'used up',
  'loading error.info': 'refused',
  'ready AUTHORISE': 'authorising',
  'authorising done.authUrl': 'leaving',
  'authorising error.authUrl': 'ready refused',
  'ready refused AUTHORISE': 'authorising',
};
// After a return from the platform the same info answers mean something else: kept in their
// own table (the address the path opens decides which).
const RETURNED: Record<string, string> = {
  'idle OPEN bound': 'loading bound',
  'idle OPEN error': 'loading error',
  'loading bound done.info valid': 'bound',
  'loading bound error.info': 'bound, owner unknown',
  'loading error done.info valid': 'ready with error',
  'ready with error AUTHORISE': 'authorising',
  'authorising done.authUrl': 'leaving',
};

const EVENTS: Event[] = [
  { type: 'OPEN', token: TOKEN, bound: false, error: null },
  { type: 'OPEN', token: '', bound: false, error: null },
  { type: 'OPEN', token: TOKEN, bound: true, error: null },
  { type: 'OPEN', token: TOKEN, bound: false, error: 'matrix.authDeclined' },
  ...(['valid', 'expired', 'revoked', 'used_up'] as const).map(
    (state) => ({ type: 'xstate.done.actor.info', output: info({ state }) }) as never,
  ),
  { type: 'xstate.error.actor.info', error: replyError(REFUSAL) } as never,
  { type: 'AUTHORISE' },
  { type: 'xstate.done.actor.authUrl', output: { url: AUTH_URL } } as never,
  { type: 'xstate.error.actor.authUrl', error: replyError(REFUSAL) } as never,
];

/** The machine's shortest paths; `returned`: those opened with a return, else the others. */
function proposed(returned: boolean): EventPath<Event>[] {
  const machine = batchAuthorizationMachine.provide({ actions: { navigate: () => {} } });
  const paths = getShortestPaths(machine, {
    events: (s) =>
      EVENTS.filter((e) => {
        // The address is opened once.
        if (e.type === 'OPEN') return s.matches('idle');
        if (!s.can(e as never)) return false;
        const { bound, error } = s.context.returned;
        if (bound || error !== null) {
          // After a return: the link's info answers "valid" (or, once bound, is refused).
          const name = label(e);
          if (name.startsWith('done.info')) return name === 'done.info valid';
          if (name === 'error.info') return bound;
          if (name === 'error.authUrl') return false;
        }
        return true;
      }),
    serializeState: (s, e) =>
      JSON.stringify([
        s.value,
        s.context.returned,
        s.context.info?.state ?? null,
        s.context.authError !== null,
        e ? label(e as Event) : '',
      ]),
  }) as unknown as EventPath<Event>[];
  return paths.filter((p) => {
    const open = p.steps[1]?.event as Event | undefined;
    const isReturn = open?.type === 'OPEN' && (open.bound || open.error !== null);
    return isReturn === returned;
  });
}

function sees(w: World): Record<string, () => void> {
  const facts = () => within(screen.getByTestId('batch-auth-facts'));
  const loading = () => {
    screen.getByRole('status', { name: text('app.loading') });
    expect(w.authorise()).toBeNull();
  };
  const disabled = (reason: MessageId) => () => {
    const button = w.authorise()!;
    expect(button.disabled).toBe(true);
    const said = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(said?.textContent).toBe(text(reason));
  };
  const ready = () => {
    screen.getByText(BRANDING.name);
    screen.getByText(
      fill('batchAuth.whose', { owner: 'Brand Shop', platform: text('batchAuth.platformDouyin') }),
    );
    screen.getByText(
      fill('batchAuth.grants', { owner: 'Brand Shop', platform: text('batchAuth.platformDouyin') }),
    );
    facts().getByText('Brand Shop');
    facts().getByText(text('batchAuth.platformDouyin'));
    facts().getByText(
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
        info().expires_at,
      ),
    );
    facts().getByText('3');
    expect(w.authorise()!.disabled).toBe(false);
    expect(w.authorise()!.getAttribute('aria-busy')).not.toBe('true');
  };
  return {
    idle: () => expect(screen.queryByRole('main')).toBeNull(),
    loading,
    'loading bound': loading,
    'loading error': loading,
    ready: () => {
      ready();
      expect(w.alert()).toBeNull();
    },
    'ready with error': () => {
      ready();
      expect(w.alert()!.textContent).toContain(text('batchAuth.errorDeclined'));
      expect(w.search()).toBe(`?token=${TOKEN}`);
    },
    'ready refused': () => {
      ready();
      expect(w.alert()!.textContent).toContain(REFUSAL);
    },
    expired: disabled('batchAuth.reasonExpired'),
    revoked: disabled('batchAuth.reasonRevoked'),
    'used up': disabled('batchAuth.reasonUsedUp'),
    refused: () => {
      expect(w.alert()!.textContent).toContain(REFUSAL);
      expect(w.authorise()).toBeNull();
    },
    'no token': () => {
      expect(w.alert()!.textContent).toContain(text('batchAuth.noToken'));
      expect(w.endpoints.calls).toEqual([]);
    },
    authorising: () => expect(w.authorise()!.getAttribute('aria-busy')).toBe('true'),
    leaving: () => {
      expect(w.authorise()!.getAttribute('aria-busy')).toBe('true');
      expect(w.navigations).toEqual([AUTH_URL]);
    },
    bound: () => {
      expect(screen.getByTestId('batch-auth-bound').textContent).toContain(
        fill('batchAuth.boundTo', { owner: 'Brand Shop' }),
      );
      expect(w.authorise()).toBeNull();
      expect(w.search()).toBe(`?token=${TOKEN}`);
    },
    'bound, owner unknown': () => {
      expect(screen.getByTestId('batch-auth-bound').textContent).toContain(
        text('batchAuth.boundDone'),
      );
      expect(w.authorise()).toBeNull();
    },
  };
}

function exec(w: World) {
  return async (event: Event) => {
    const name = label(event);
    if (event.type === 'OPEN') {
      const search =
        name === 'OPEN no token'
          ? ''
          : name === 'OPEN bound'
            ? `?token=${TOKEN}&bound=12`
            : name === 'OPEN error'
              ? `?token=${TOKEN}&error=matrix.authDeclined`
              : `?token=${TOKEN}`;
      await w.open(search);
      if (name !== 'OPEN no token') {
        expect(w.endpoints.calls.at(-1)).toEqual({
          name: 'getInfo',
          input: [{ token: TOKEN }, { quiet: true }],
        });
      }
      return;
    }
    if (name.startsWith('done.info')) {
      return w.endpoints.settle(
        'getInfo',
        'done',
        (event as unknown as { output: unknown }).output,
      );
    }
    switch (name) {
      case 'error.info':
        return w.endpoints.settle('getInfo', 'error', replyError(REFUSAL));
      case 'AUTHORISE':
        await w.user.click(w.authorise()!);
        expect(w.endpoints.calls.at(-1)).toEqual({
          name: 'getAuthUrl',
          input: [{ token: TOKEN }, { quiet: true }],
        });
        return;
      case 'done.authUrl':
        return w.endpoints.settle('getAuthUrl', 'done', { url: AUTH_URL });
      case 'error.authUrl':
        return w.endpoints.settle('getAuthUrl', 'error', replyError(REFUSAL));
      default:
        throw new Error(`no person's action for ${event.type}`);
    }
  };
}

describe('the link opened (page machine)', () => {
  uiPaths<Event>({
    oracle: { initial: 'idle', transitions: TABLE, label },
    proposed: proposed(false),
    timeout: 20_000,
    run: async (_path, walk) => {
      const w = world();
      await walk({ sees: sees(w), exec: exec(w) });
      w.dispose();
    },
  });
});

describe('back from the platform (page machine)', () => {
  uiPaths<Event>({
    oracle: { initial: 'idle', transitions: RETURNED, label },
    proposed: proposed(true),
    timeout: 20_000,
    run: async (_path, walk) => {
      const w = world();
      await walk({ sees: sees(w), exec: exec(w) });
      w.dispose();
    },
  });
});

test.each([
  ...Object.entries(RETURN_ERRORS).map(([key, shown]) => [`matrix.${key}`, shown]),
  ['matrix.somethingElse', 'batchAuth.errorFailed'],
  ['authDeclined', 'batchAuth.errorFailed'],
])('a return with error=%s says the console’s %s, never the id', async (error, shown) => {
  const w = world();
  await w.open(`?token=${TOKEN}&error=${encodeURIComponent(error)}`);
  await w.endpoints.settle('getInfo', 'done', info({ uses_left: null }));
  expect(w.alert()!.textContent).toContain(text(shown as MessageId));
  expect(document.body.textContent).not.toContain(error);
  // No limit on uses.
  within(screen.getByTestId('batch-auth-facts')).getByText(text('batchAuth.noLimit'));
  w.dispose();
});

test('a signed-in visitor sees the page too', async () => {
  const w = world(true);
  await w.open(`?token=${TOKEN}`);
  await w.endpoints.settle('getInfo', 'done', info());
  expect(w.authorise()!.disabled).toBe(false);
  w.dispose();
});

test('the route is the page, open to signed-out and signed-in visitors alike', async () => {
  const { Component } = await viewFor('batchAuthorization')();
  expect(Component).toBe(BatchAuthorizationPage);
  for (const actors of [appActors({}), appActors({ auth: shopAuth() })]) {
    const decision = await guardNavigation(
      actors,
      { pathname: '/batchAuthorization', search: `?token=${TOKEN}` },
      { menuFromServer: false },
    );
    expect(decision).toEqual({ type: 'allow' });
    actors.dispose();
  }
});
