/**
 * Model-based path tests of the route guard: every shortest path for a few navigations, run on a
 * real actor whose waiting and overstep actors are fakes settled by the path's steps.
 */
import { describe, expect, test } from 'vitest';
import { createActor, toPromise, type StateValue } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { matchRoute } from '../../src/app/routes/route-table';
import type { AuthSummary } from '../../src/machines/auth';
import { guardMachine, type GuardInput, type GuardSnapshot } from '../../src/machines/guard';
import type { MessageId } from '../../src/i18n/messages';
import { describePath, fakeCalls, runPath } from './harness';

// ---------------------------------------------------------------------------------------------
// What a person sees in each state. One table: the view assertions added later read it too.

export interface GuardSees {
  /** 'loading': the quiet spinner; 'page': the page of the route the navigation ends on. */
  page: 'loading' | 'page';
  /** The spinner's accessible name. */
  label?: MessageId;
}

export const GUARD_STATES: Record<
  string,
  { tags: 'guardPending'[]; waitingFor: string[]; final: boolean; sees: GuardSees }
> = {
  waitingForAuth: {
    tags: ['guardPending'],
    waitingFor: ['waitForAuth'],
    final: false,
    sees: { page: 'loading', label: 'app.loading' },
  },
  overstepping: {
    tags: ['guardPending'],
    waitingFor: ['overstep'],
    final: false,
    sees: { page: 'loading', label: 'app.loading' },
  },
  waitingForMenu: {
    tags: ['guardPending'],
    waitingFor: ['waitForMenu'],
    final: false,
    sees: { page: 'loading', label: 'app.loading' },
  },
  allowed: { tags: [], waitingFor: [], final: true, sees: { page: 'page' } },
  redirected: { tags: [], waitingFor: [], final: true, sees: { page: 'page' } },
};

/** The title of the page a person ends up on (the route the decision leads to). */
export function pageTitleOf(snapshot: GuardSnapshot): string {
  const { decision, pathname } = snapshot.context;
  const target = decision?.type === 'redirect' ? decision.to.split('?')[0] : pathname;
  return matchRoute(target).titleId;
}

// ---------------------------------------------------------------------------------------------
// The model

const summary = (extra: Partial<AuthSummary>): AuthSummary => ({
  signedIn: true,
  role: 'admin',
  showClipMenu: 1,
  tokenKind: 'local',
  overstepFailed: false,
  ...extra,
});
const ANONYMOUS: AuthSummary = {
  signedIn: false,
  role: null,
  showClipMenu: 1,
  tokenKind: null,
  overstepFailed: false,
};

const EVENTS = [
  { type: 'xstate.done.actor.waitForAuth', output: ANONYMOUS },
  { type: 'xstate.done.actor.waitForAuth', output: summary({ role: 'admin' }) },
  { type: 'xstate.done.actor.waitForAuth', output: summary({ role: 'partner' }) },
  { type: 'xstate.done.actor.waitForAuth', output: summary({ role: 'merchant' }) },
  { type: 'xstate.done.actor.waitForAuth', output: summary({ role: 'agent' }) },
  { type: 'xstate.error.actor.waitForAuth', error: new Error('stopped') },
  {
    type: 'xstate.done.actor.overstep',
    output: summary({ role: 'merchant', tokenKind: 'session' }),
  },
  { type: 'xstate.done.actor.overstep', output: { ...ANONYMOUS, overstepFailed: true } },
  { type: 'xstate.error.actor.overstep', error: new Error('stopped') },
  { type: 'xstate.done.actor.waitForMenu', output: ['merchant', 'workBench', 'clip'] },
  { type: 'xstate.done.actor.waitForMenu', output: [] },
  { type: 'xstate.error.actor.waitForMenu', error: new Error('menu failed') },
] as const;

function label(event: { type: string; output?: unknown }): string {
  const [, kind, id] = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type) ?? [];
  if (kind === 'error') return `${id} fails`;
  const out = event.output as Partial<AuthSummary> | string[] | undefined;
  if (Array.isArray(out)) return `${id}: [${out.join(', ')}]`;
  if (out?.overstepFailed) return `${id}: failed`;
  return `${id}: ${out?.role ?? 'anonymous'}`;
}

function title(path: { steps: { event: { type: string } }[]; state: GuardSnapshot }): string {
  const end = path.state.context.decision;
  const outcome = end ? ` ⇒ ${end.type === 'allow' ? 'allow' : `redirect ${end.to}`}` : '';
  return describePath(path as never, label) + outcome;
}

function stateKey(value: StateValue): string {
  return typeof value === 'string' ? value : Object.keys(value)[0];
}

function serialize(snapshot: GuardSnapshot, event?: { type: string; output?: unknown }): string {
  const { decision, auth, menuNames } = snapshot.context;
  return JSON.stringify({
    state: stateKey(snapshot.value),
    role: auth?.role ?? null,
    overstepFailed: auth?.overstepFailed ?? false,
    menu: menuNames,
    decision,
    via: event?.type ?? 'init',
  });
}

const NAVIGATIONS: (GuardInput & { name: string })[] = [
  {
    name: 'an overstep link to a customers page, menu from server',
    pathname: '/promotion/merchant',
    search: '?login_type=1&merchant_id=5',
    tokenKind: 'local',
    menuFromServer: true,
  },
  {
    name: 'the login page',
    pathname: '/login',
    search: '',
    tokenKind: 'local',
    menuFromServer: false,
  },
  { name: 'the root', pathname: '/', search: '', tokenKind: null, menuFromServer: false },
  {
    name: 'the clip page, menu from server',
    pathname: '/creation/clip',
    search: '',
    tokenKind: 'local',
    menuFromServer: true,
  },
];

describe.each(NAVIGATIONS)('guard: $name', (input) => {
  const paths = getShortestPaths(guardMachine, {
    input,
    events: (snapshot) =>
      (EVENTS as unknown as { type: string }[]).filter((e) => snapshot.can(e as never)) as never[],
    serializeState: (state, event) => serialize(state, event),
  });

  test('the model has paths that end in a decision', () => {
    expect(paths.some((p) => p.state.status === 'done')).toBe(true);
  });

  test.each(paths.map((path) => [title(path), path] as const))('%s', async (_, path) => {
    const calls = fakeCalls();
    const actor = createActor(
      guardMachine.provide({
        actors: {
          waitForAuth: calls.logic(),
          overstep: calls.logic(),
          waitForMenu: calls.logic(),
        },
      }),
      { input },
    );
    await runPath({
      path,
      actor,
      calls,
      serialize: (s: GuardSnapshot, e?: { type: string }) => serialize(s, e),
      check: (snapshot, event) => {
        const promised = GUARD_STATES[stateKey(snapshot.value)];
        expect(promised, `no row for ${stateKey(snapshot.value)}`).toBeDefined();
        expect(snapshot.hasTag('guardPending')).toBe(promised.tags.includes('guardPending'));
        expect(calls.waiting()).toEqual(promised.waitingFor);
        expect(snapshot.status === 'done').toBe(promised.final);
        if (event?.type === 'xstate.done.actor.waitForAuth' && snapshot.matches('overstepping'))
          expect(calls.started.at(-1)).toEqual({ id: 'overstep', input: { merchantId: 5 } });
        if (promised.final) {
          expect(snapshot.output).toEqual(snapshot.context.decision);
          expect(pageTitleOf(snapshot)).toMatch(/^route\./);
        }
      },
    });
    if (actor.getSnapshot().status === 'done')
      await expect(toPromise(actor)).resolves.toBeDefined();
    actor.stop();
  });
});

test('the login-page navigation of a signed-in admin ends on the home page', async () => {
  const calls = fakeCalls();
  const actor = createActor(
    guardMachine.provide({
      actors: { waitForAuth: calls.logic(), overstep: calls.logic(), waitForMenu: calls.logic() },
    }),
    { input: NAVIGATIONS[1] },
  ).start();
  calls.settle('waitForAuth', 'done', summary({ role: 'admin' }));
  expect(await toPromise(actor)).toEqual({ type: 'redirect', to: '/home/index' });
  expect(pageTitleOf(actor.getSnapshot())).toBe('route.home');
});
