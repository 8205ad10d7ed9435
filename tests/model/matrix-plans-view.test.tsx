/**
 * The release plans page (/matrix-distribution/release-plan) driven as a merchant would, against
 * hand-written oracles:
 * - the page machine (src/machines/matrix-plans.ts): its shortest paths only propose event
 *   sequences for the plan actions (pause, resume, cancel with its confirmation) and the post
 *   actions of the detail (publish now, retry), each followed by its notice; each step is a click
 *   or a fake endpoint settling, and what the person sees after it is checked from the tables below
 *   (PLAN, POST), never from the machine; each outcome reloads the lists (effects);
 * - the create form (src/machines/plan-form.ts): the same for its `form` region (FORM): a refused
 *   draft takes the person to the first invalid field, the preview shows its first posts in the
 *   plan's time zone, a save closes the form and reloads the list;
 * - by hand: the list (rows, status filter, paging), AI titles (the demonstration label, added
 *   titles, a refused request), the detail (reasons, links, numbers, times in the plan's zone).
 */
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { getShortestPaths } from 'xstate/graph';
import type { MatrixAccount } from '../../src/api/contract/matrix';
import type { PlanPost, PlanPreview, ReleasePlan } from '../../src/api/contract/matrix-plans';
import { provideArea } from '../../src/app/actors/areas';
import {
  checkPlanDraft,
  matrixPlansArea,
  type MatrixPlansEndpoints,
} from '../../src/app/actors/matrix-plans';
import { Providers } from '../../src/app/boot/providers';
import enUS from '../../src/i18n/en-US';
import { fill, text } from './messages';
import {
  createCustomerDialogMachine,
  type CustomerDialogEvent,
} from '../../src/machines/customers/customer-dialog';
import { matrixPlansMachine, type MatrixPlansEvent } from '../../src/machines/matrix-plans';
import { createPlanFormMachine, type PlanFormEvent } from '../../src/machines/plan-form';
import ReleasePlanPage from '../../src/views/matrix/release-plan-page';
import { replyError } from './fixtures';
import { clipResource, shopAuth } from './video-task-fixtures';
import {
  coverRows,
  fakeEndpoints,
  pathName,
  person,
  rowsUsed,
  runUiPath,
  viewPathHooks,
  withoutPrefixes,
  type EventPath,
} from './ui-paths';
import { appActors, isOpen } from './view-harness';

/** 2026-11-29 12:00 in Shanghai: a new plan runs from 2026-11-30 to 2026-12-06. */
const NOW = Date.UTC(2026, 10, 29, 4, 0);
const REFUSAL = 'Refused by the server';

const plan = (over: Partial<ReleasePlan> & Pick<ReleasePlan, 'id' | 'name'>): ReleasePlan => ({
  status: 'running',
  timezone: 'Asia/Shanghai',
  start_date: '2026-11-20',
  end_date: '2026-12-10',
  slots: ['09:00'],
  daily_max: 1,
  titles: ['Hi'],
  topics: [],
  location: null,
  account_ids: [1],
  media: [{ type: 'resource', id: 31, name: 'Clip 1' }],
  counts: { published: 3, failed: 1, waiting: 5 },
  total: 9,
  created_at: 0,
  ...over,
});
const RUNNING = plan({ id: 1, name: 'Spring', timezone: 'America/New_York' });
const PAUSED = plan({ id: 2, name: 'Autumn', status: 'paused', counts: { waiting: 4 }, total: 4 });

const post = (over: Partial<PlanPost> & Pick<PlanPost, 'id' | 'status'>): PlanPost => ({
  plan_id: 1,
  account_id: 1,
  media: { type: 'resource', id: 31, name: 'Clip 1' },
  title: `Title ${over.id}`,
  // 14:00 UTC: 09:00 in New York (the plan's zone), 22:00 in Shanghai.
  scheduled_at: Date.UTC(2026, 11, 2, 14, 0),
  reason: null,
  share_url: null,
  published_at: null,
  assisted: null,
  metrics: { plays: 0, likes: 0, comments: 0, shares: 0 },
  ...over,
});
const WAITING = post({ id: 11, status: 'waiting' });
const FAILED = post({
  id: 12,
  status: 'failed',
  reason: {
    kind: 'rate_limited',
    text: 'The platform is busy',
    platform_code: 2190001,
    platform_text: 'frequency limit',
    retryable: true,
  },
});
const REJECTED = post({
  id: 13,
  status: 'failed',
  reason: {
    kind: 'media_invalid',
    text: 'The platform cannot use this file',
    platform_code: 2190005,
    platform_text: 'bad media',
    retryable: false,
  },
});
const PUBLISHED = post({
  id: 14,
  status: 'published',
  share_url: 'https://www.douyin.example/video/14',
  published_at: Date.UTC(2026, 11, 2, 14, 1),
  metrics: { plays: 1234, likes: 56, comments: 7, shares: 8 },
});
/** Posts of an assisted account (published by hand): a waiting one and a missed one. */
const ASSISTED = post({
  id: 15,
  status: 'waiting',
  assisted: { download_url: 'https://files.example/15.mp4?sig=a', text: 'Title 15 #spring' },
});
const MISSED = post({
  id: 16,
  status: 'missed',
  assisted: { download_url: 'https://files.example/16.mp4?sig=b', text: 'Title 16 #spring' },
});

const account = (id: number, nickname: string): MatrixAccount => ({
  id,
  platform: 'douyin',
  open_id: `o${id}`,
  nickname,
  avatar: '',
  fans: 1,
  group_id: null,
  status: 'normal',
  sandbox: false,
  assisted: false,
  expires_at: Date.UTC(2026, 11, 20),
  refresh_expires_at: Date.UTC(2027, 0, 1),
  renewals_left: 5,
  last_refresh_at: null,
  last_error: null,
  created_at: 0,
});
const SHOP = account(1, 'Shop A');
const CLIP = clipResource(31, 'Clip 1', 12);

viewPathHooks();

interface Options {
  plans?: ReleasePlan[];
  total?: number;
}

/** A merchant on the page with fake endpoints of the release plans area. */
async function setup(options: Options = {}) {
  const plans = options.plans ?? [RUNNING, PAUSED];
  const endpoints = fakeEndpoints();
  const actors = appActors({ auth: shopAuth() });
  const queries: Record<string, unknown>[] = [];
  const postQueries: Record<string, unknown>[] = [];
  const effects: string[] = [];
  const getPlans: MatrixPlansEndpoints['getPlans'] = async (query) => {
    queries.push({ ...query });
    effects.push('plans');
    const shown = plans.filter((p) => !query.status || p.status === query.status);
    return { list: shown, total: options.total ?? shown.length };
  };
  const getPosts: MatrixPlansEndpoints['getPosts'] = async (query) => {
    postQueries.push({ ...query });
    effects.push('posts');
    return { list: [WAITING, FAILED, REJECTED, PUBLISHED, ASSISTED, MISSED], total: 6 };
  };
  provideArea(actors, matrixPlansArea, {
    getPlans,
    previewPlan: endpoints.endpoint('previewPlan') as never,
    addPlan: endpoints.endpoint('addPlan') as never,
    editPlan: endpoints.endpoint('editPlan') as never,
    getPlanMedia: endpoints.endpoint('getPlanMedia') as never,
    pausePlan: endpoints.endpoint('pausePlan') as never,
    resumePlan: endpoints.endpoint('resumePlan') as never,
    cancelPlan: endpoints.endpoint('cancelPlan') as never,
    getPosts,
    publishNow: endpoints.endpoint('publishNow') as never,
    retryPost: endpoints.endpoint('retryPost') as never,
    markPublished: endpoints.endpoint('markPublished') as never,
    imitateTitle: endpoints.endpoint('imitateTitle') as never,
    getAccounts: async () => ({ list: [SHOP], total: 1 }),
    getResources: async () => ({ list: [CLIP], total: 1 }),
    now: () => NOW,
  });
  const router = createMemoryRouter([{ path: '*', element: <ReleasePlanPage /> }], {
    initialEntries: ['/matrix-distribution/release-plan'],
  });
  render(
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>,
  );
  const user = person();
  await vi.waitFor(() => screen.getByRole('heading', { name: text('route.releasePlan') }), {
    timeout: 5000,
  });
  await vi.waitFor(() => expect(queries.length).toBeGreaterThan(0), { timeout: 5000 });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
  const dialogs = () => screen.queryAllByRole('dialog').filter(isOpen);
  /** The button of that name (not one of a closed resource picker still in the drawer). */
  const button = (name: string, root: HTMLElement = document.body) => {
    const found = within(root)
      .getAllByRole('button', { name })
      .filter((b) => !b.closest('[data-testid="resource-picker"]'));
    expect(found).toHaveLength(1);
    return found[0] as HTMLButtonElement;
  };
  const notice = () => screen.queryByTestId('plan-notice');
  // Chakra keeps a closing drawer in the DOM for its exit animation: only an open one counts.
  const openOne = (id: string) => {
    const el = screen.queryByTestId(id);
    return el && isOpen(el) ? el : null;
  };
  const formDrawer = () => openOne('plan-form');
  const detail = () => openOne('plan-detail');
  return {
    endpoints,
    user,
    dialogs,
    button,
    notice,
    formDrawer,
    detail,
    queries,
    postQueries,
    /** The effects since the last call: list loads. */
    take: () => effects.splice(0),
    dispose: () => actors.dispose(),
  };
}
type World = Awaited<ReturnType<typeof setup>>;

/** Shortest paths of a machine, with a path for each row of the table they miss. */
function paths<E extends { type: string }>(
  machine: Parameters<typeof getShortestPaths>[0],
  events: (s: never) => E[],
  serialize: (s: never) => string,
  table: Record<string, string>,
  initial: string,
  label: (e: E) => string,
) {
  const found = getShortestPaths(machine, {
    events: events as never,
    serializeState: (s, e) => JSON.stringify([serialize(s as never), e ? label(e as E) : '']),
  });
  return withoutPrefixes(
    coverRows(found as unknown as EventPath<E>[], { initial, transitions: table, label }),
    (e) => label(e as E),
  );
}

const eventLabel = (e: { type: string }) => e.type.replace(/^xstate\./, '').replace('.actor', '');

// ---------------------------------------------------------------------------------------------
// The plan actions: "Spring" (running) can be paused and cancelled, "Autumn" (paused) resumed.
// Each outcome is the page's notice (dismissed before the next action) and reloads the list.

type PageEvent = MatrixPlansEvent;
type PageState = ReturnType<typeof matrixPlansMachine.resolveState>;

const PLAN: Record<string, string> = {
  'idle PAUSE': 'pausing',
  'idle RESUME': 'resuming',
  'idle CANCEL_PLAN': 'confirming',
  'confirming KEEP': 'idle',
  'confirming CONFIRM': 'cancelling',
  'pausing done.planAction': 'paused',
  'pausing error.planAction': 'refused',
  'resuming done.planAction': 'resumed',
  'resuming error.planAction': 'refused',
  'cancelling done.planAction': 'cancelled',
  'cancelling error.planAction': 'refused',
  'paused DISMISS': 'idle',
  'resumed DISMISS': 'idle',
  'cancelled DISMISS': 'idle',
  'refused DISMISS': 'idle',
};

describe('plan actions (page machine, plan and notice regions)', () => {
  const rows = rowsUsed();
  const events: PageEvent[] = [
    { type: 'PAUSE', plan: { id: 1, name: 'Spring' } },
    { type: 'RESUME', plan: { id: 2, name: 'Autumn' } },
    { type: 'CANCEL_PLAN', plan: { id: 1, name: 'Spring' } },
    { type: 'CONFIRM' },
    { type: 'KEEP' },
    { type: 'xstate.done.actor.planAction', output: RUNNING } as never,
    { type: 'xstate.error.actor.planAction', error: replyError(REFUSAL) } as never,
    { type: 'DISMISS' },
  ];
  const starts = ['PAUSE', 'RESUME', 'CANCEL_PLAN'];
  const list = paths<PageEvent>(
    matrixPlansMachine,
    // A new action once the notice is dismissed (the person reads it first).
    ((s: PageState) =>
      events.filter(
        (e) => !(starts.includes(e.type) && s.hasTag('notice')) && s.can(e as never),
      )) as never,
    ((s: PageState) =>
      [(s.value as { plan: string }).plan, s.context.acting?.action, s.context.notice?.text].join(
        ':',
      )) as never,
    PLAN,
    'idle',
    eventLabel,
  );
  test.each(list.map((p) => [pathName(p, eventLabel), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      const pause = () => w.button(fill('matrixPlans.pauseOf', { name: 'Spring' }));
      const resume = () => w.button(fill('matrixPlans.resumeOf', { name: 'Autumn' }));
      const cancel = () => w.button(fill('matrixPlans.cancelOf', { name: 'Spring' }));
      const free = () => {
        expect(w.dialogs()).toEqual([]);
        for (const b of [pause(), resume(), cancel()]) {
          expect(b.disabled).toBe(false);
          expect(b.getAttribute('aria-busy')).not.toBe('true');
        }
      };
      const busy = (b: () => HTMLButtonElement) => () => {
        expect(w.dialogs()).toEqual([]);
        expect(b().getAttribute('aria-busy')).toBe('true');
        expect(pause().disabled && resume().disabled && cancel().disabled).toBe(true);
        expect(w.notice()).toBeNull();
      };
      const said = (role: string, words: string) => () => {
        free();
        expect(w.notice()!.getAttribute('role')).toBe(role);
        expect(w.notice()!.textContent).toContain(words);
      };
      const sees: Record<string, () => void> = {
        idle: () => {
          free();
          expect(w.notice()).toBeNull();
        },
        confirming: () => {
          const [d] = w.dialogs();
          within(d).getByRole('heading', { name: text('matrixPlans.cancelTitle') });
          within(d).getByText(fill('matrixPlans.cancelWhat', { name: 'Spring' }));
        },
        pausing: busy(pause),
        resuming: busy(resume),
        cancelling: busy(cancel),
        paused: said('status', fill('matrixPlans.paused', { name: 'Spring' })),
        resumed: said('status', fill('matrixPlans.resumed', { name: 'Autumn' })),
        cancelled: said('status', fill('matrixPlans.cancelled', { name: 'Spring' })),
        refused: said('alert', REFUSAL),
      };
      let pending = '';
      const outcome: Record<string, string[]> = {};
      for (const from of ['pausing', 'resuming', 'cancelling']) {
        // The list reloads (the counts and the status changed); the detail's posts were never shown.
        outcome[`${from} done.planAction`] = ['plans'];
        outcome[`${from} error.planAction`] = ['plans'];
      }
      w.take();
      await runUiPath(
        path,
        {
          initial: 'idle',
          transitions: PLAN,
          label: eventLabel,
          sees,
          effects: { take: w.take, expected: outcome },
          exec: async (event) => {
            switch (eventLabel(event)) {
              case 'PAUSE':
                pending = 'pausePlan';
                await w.user.click(pause());
                break;
              case 'RESUME':
                pending = 'resumePlan';
                await w.user.click(resume());
                break;
              case 'CANCEL_PLAN':
                pending = 'cancelPlan';
                return w.user.click(cancel());
              case 'KEEP':
                return w.user.click(w.button(text('form.cancel'), w.dialogs()[0]));
              case 'CONFIRM':
                await w.user.click(w.button(text('matrixPlans.cancelPlan'), w.dialogs()[0]));
                break;
              case 'DISMISS':
                return w.user.click(w.button(text('matrix.dismiss')));
              case 'done.planAction':
                return w.endpoints.settle(pending, 'done', RUNNING);
              case 'error.planAction':
                return w.endpoints.settle(pending, 'error', replyError(REFUSAL));
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
            const id = pending === 'resumePlan' ? 2 : 1;
            expect(w.endpoints.calls.at(-1)).toEqual({
              name: pending,
              input: [{ id }, { quiet: true }],
            });
          },
        },
        rows.used,
      );
      w.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(PLAN)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The post actions of Spring's detail: publish the waiting post now, retry the failed retryable
// one (the rejected file has no retry). Each outcome is the notice in the drawer and reloads
// the posts and the plans.

const POST: Record<string, string> = {
  'idle PUBLISH_NOW': 'publishing',
  'idle RETRY': 'retrying',
  'publishing done.postAction': 'queued',
  'publishing error.postAction': 'refused',
  'retrying done.postAction': 'retried',
  'retrying error.postAction': 'refused',
  'queued DISMISS': 'idle',
  'retried DISMISS': 'idle',
  'refused DISMISS': 'idle',
};

const openSpring = async (w: World) => {
  await w.user.click(w.button(fill('matrixPlans.postsOf', { name: 'Spring' })));
  await vi.waitFor(() => within(w.detail()!).getByText(WAITING.title));
};
const postName = (p: PlanPost) => `${SHOP.nickname} · ${p.title}`;

describe('post actions (page machine, post and notice regions)', () => {
  const rows = rowsUsed();
  const events: PageEvent[] = [
    { type: 'PUBLISH_NOW', id: WAITING.id },
    { type: 'RETRY', id: FAILED.id },
    { type: 'xstate.done.actor.postAction', output: null } as never,
    { type: 'xstate.error.actor.postAction', error: replyError(REFUSAL) } as never,
    { type: 'DISMISS' },
  ];
  const list = paths<PageEvent>(
    matrixPlansMachine,
    ((s: PageState) =>
      events.filter(
        (e) =>
          !(['PUBLISH_NOW', 'RETRY'].includes(e.type) && s.hasTag('notice')) && s.can(e as never),
      )) as never,
    ((s: PageState) =>
      [(s.value as { post: string }).post, s.context.post?.action, s.context.notice?.text].join(
        ':',
      )) as never,
    POST,
    'idle',
    eventLabel,
  );
  test.each(list.map((p) => [pathName(p, eventLabel), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      await openSpring(w);
      const drawer = () => w.detail()!;
      const publish = () =>
        w.button(fill('matrixPlans.publishNowOf', { name: postName(WAITING) }), drawer());
      const retry = () =>
        w.button(fill('matrixPlans.retryOf', { name: postName(FAILED) }), drawer());
      const free = () => {
        for (const b of [publish(), retry()]) {
          expect(b.disabled).toBe(false);
          expect(b.getAttribute('aria-busy')).not.toBe('true');
        }
      };
      const busy = (b: () => HTMLButtonElement) => () => {
        expect(b().getAttribute('aria-busy')).toBe('true');
        expect(publish().disabled && retry().disabled).toBe(true);
      };
      const said = (role: string, words: string) => () => {
        free();
        const notice = within(drawer()).getByTestId('plan-notice');
        expect(notice.getAttribute('role')).toBe(role);
        expect(notice.textContent).toContain(words);
      };
      const sees: Record<string, () => void> = {
        idle: () => {
          free();
          expect(w.notice()).toBeNull();
        },
        publishing: busy(publish),
        retrying: busy(retry),
        queued: said('status', text('matrixPlans.publishQueued')),
        retried: said('status', text('matrixPlans.retryQueued')),
        refused: said('alert', REFUSAL),
      };
      const outcome: Record<string, string[]> = {};
      for (const from of ['publishing', 'retrying']) {
        outcome[`${from} done.postAction`] = ['plans', 'posts'];
        outcome[`${from} error.postAction`] = ['plans', 'posts'];
      }
      let pending = '';
      w.take();
      await runUiPath(
        path,
        {
          initial: 'idle',
          transitions: POST,
          label: eventLabel,
          sees,
          effects: { take: () => w.take().sort(), expected: outcome },
          exec: async (event) => {
            switch (eventLabel(event)) {
              case 'PUBLISH_NOW':
                pending = 'publishNow';
                await w.user.click(publish());
                expect(w.endpoints.calls.at(-1)).toEqual({
                  name: 'publishNow',
                  input: [{ id: WAITING.id }, { quiet: true }],
                });
                return;
              case 'RETRY':
                pending = 'retryPost';
                await w.user.click(retry());
                expect(w.endpoints.calls.at(-1)).toEqual({
                  name: 'retryPost',
                  input: [{ id: FAILED.id }, { quiet: true }],
                });
                return;
              case 'DISMISS':
                return w.user.click(w.button(text('matrix.dismiss'), drawer()));
              case 'done.postAction':
                return w.endpoints.settle(pending, 'done', null);
              case 'error.postAction':
                return w.endpoints.settle(pending, 'error', replyError(REFUSAL));
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
          },
        },
        rows.used,
      );
      w.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(POST)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// An assisted post marked published by hand (the dialog machine of the area's `markPublished`):
// the person pastes its share link (a malformed one is refused before any call), the server may
// refuse it (said in the dialog; sending again = RETRY with the same link), once saved the
// dialog closes, the drawer's notice says so and the posts and plans reload.

const MARK: Record<string, string> = {
  'closed OPEN': 'asking',
  'asking CLOSE': 'closed',
  'asking SUBMIT': 'saving',
  'saving done.submit': 'saved',
  'saving error.submit': 'refused',
  'refused RETRY': 'saving',
  'refused CLOSE': 'closed',
  'saved OPEN': 'asking',
};
const SHARE_URL = 'https://v.douyin.example/abc';

describe('mark published (dialog machine of an assisted post)', () => {
  const rows = rowsUsed();
  type MarkEvent = CustomerDialogEvent<PlanPost, { share_url: string }>;
  const machine = createCustomerDialogMachine<PlanPost, { share_url: string }>('mark');
  type MarkState = ReturnType<typeof machine.resolveState>;
  const events: MarkEvent[] = [
    { type: 'OPEN', target: ASSISTED },
    { type: 'SUBMIT', payload: { share_url: SHARE_URL } },
    { type: 'RETRY' },
    { type: 'CLOSE' },
    { type: 'xstate.done.actor.submit', output: null } as never,
    { type: 'xstate.error.actor.submit', error: replyError(REFUSAL) } as never,
  ];
  const list = paths<MarkEvent>(
    machine,
    ((s: MarkState) => events.filter((e) => s.can(e as never))) as never,
    // A refusal is remembered through RETRY: a path is refused once, then saved.
    ((s: MarkState) => `${String(s.value)}:${s.context.error ?? ''}`) as never,
    MARK,
    'closed',
    eventLabel,
  );
  test.each(list.map((p) => [pathName(p, eventLabel), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      await openSpring(w);
      const drawer = () => w.detail()!;
      const mark = () =>
        w.button(fill('matrixPlans.markPublishedOf', { name: postName(ASSISTED) }), drawer());
      const dialog = () => {
        const found = w.dialogs().filter((d) => d.getAttribute('role') === 'dialog');
        const [d] = found.filter((d) =>
          within(d).queryByRole('heading', {
            name: fill('matrixPlans.markPublishedTitle', { title: ASSISTED.title }),
          }),
        );
        return d ?? null;
      };
      const submit = () => w.button(text('matrixPlans.markPublished'), dialog()!);
      const box = () =>
        within(dialog()!).getByRole('textbox', { name: text('matrixPlans.shareUrl') });
      const sees: Record<string, () => void> = {
        closed: () => {
          expect(dialog()).toBeNull();
          expect(mark().disabled).toBe(false);
        },
        asking: () => {
          within(dialog()!).getByText(text('matrixPlans.markPublishedWhat'));
          expect(box()).toBeTruthy();
          expect(within(dialog()!).queryByText(REFUSAL)).toBeNull();
        },
        saving: () => expect(submit().getAttribute('aria-busy')).toBe('true'),
        refused: () => {
          within(dialog()!).getByText(REFUSAL);
          expect(submit().getAttribute('aria-busy')).not.toBe('true');
        },
        saved: () => {
          expect(dialog()).toBeNull();
          const notice = within(drawer()).getByTestId('plan-notice');
          expect(notice.getAttribute('role')).toBe('status');
          expect(notice.textContent).toContain(text('matrixPlans.markedPublished'));
        },
      };
      const sent = () =>
        expect(w.endpoints.calls.at(-1)).toEqual({
          name: 'markPublished',
          input: [{ id: ASSISTED.id, share_url: SHARE_URL }, { quiet: true }],
        });
      w.take();
      await runUiPath(
        path,
        {
          initial: 'closed',
          transitions: MARK,
          label: eventLabel,
          sees,
          effects: {
            take: () => w.take().sort(),
            expected: { 'saving done.submit': ['plans', 'posts'] },
          },
          exec: async (event) => {
            switch (eventLabel(event)) {
              case 'OPEN':
                await w.user.click(mark());
                // The dialog takes the focus from the drawer's trap once it has opened.
                return act(async () => {
                  await vi.advanceTimersByTimeAsync(100);
                });
              case 'CLOSE':
                return w.user.click(w.button(text('form.cancel'), dialog()!));
              case 'SUBMIT': {
                // A link that is not one is refused before any call, under the field.
                const before = w.endpoints.calls.length;
                await w.user.clear(box());
                await w.user.paste('v.douyin.example/abc');
                await w.user.click(submit());
                within(dialog()!).getByText(enUS['validation.shareUrl']);
                expect(w.endpoints.calls.length).toBe(before);
                await w.user.clear(box());
                await w.user.paste(` ${SHARE_URL} `);
                await w.user.click(submit());
                return sent();
              }
              case 'RETRY':
                // Sent again as it is (the link kept).
                expect((box() as HTMLInputElement).value).toBe(SHARE_URL);
                await w.user.click(submit());
                return sent();
              case 'done.submit':
                return w.endpoints.settle('markPublished', 'done', null);
              case 'error.submit':
                return w.endpoints.settle('markPublished', 'error', replyError(REFUSAL));
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
          },
        },
        rows.used,
      );
      w.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(MARK)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The create form. FILL: the person fills every field (Shop A, Clip 1 from the picker, one title,
// New York); once filled, FILL changes the name (the draft stays valid).

const FORM: Record<string, string> = {
  'closed OPEN': 'blank',
  'blank PREVIEW': 'refused',
  'blank CLOSE': 'closed',
  'blank FILL': 'filled',
  'refused FILL': 'filled',
  'refused CLOSE': 'closed',
  'filled PREVIEW': 'previewing',
  'filled CLOSE': 'closed',
  'previewing done.preview': 'previewed',
  'previewing error.preview': 'previewRefused',
  'previewRefused PREVIEW': 'previewing',
  // The refusal stays said until the next preview.
  'previewRefused FILL': 'previewRefused',
  'previewRefused CLOSE': 'closed',
  'previewed SAVE': 'saving',
  'previewed FILL': 'filled',
  'previewed PREVIEW': 'previewing',
  'previewed CLOSE': 'closed',
  'saving done.save': 'closed',
  'saving error.save': 'saveRefused',
  'saveRefused SAVE': 'saving',
  'saveRefused FILL': 'previewRefused',
  'saveRefused PREVIEW': 'previewing',
  'saveRefused CLOSE': 'closed',
};

const FILLED = {
  name: 'Launch',
  accountIds: [1],
  media: [{ type: 'resource' as const, id: 31, name: 'Clip 1' }],
  titles: ['Hello world'],
  timezone: 'America/New_York',
};
const body = (name: string) => ({
  name,
  account_ids: [1],
  media: [{ type: 'resource', id: 31 }],
  titles: ['Hello world'],
  topics: [],
  start_date: '2026-11-30',
  end_date: '2026-12-06',
  slots: ['09:00', '18:00'],
  daily_max: 2,
  timezone: 'America/New_York',
});
const PREVIEW: PlanPreview = {
  total: 14,
  per_account_day: 2,
  per_media: [14],
  first: [
    {
      account_id: 1,
      media: { type: 'resource', id: 31, name: 'Clip 1' },
      title: 'Hello world',
      // 09:00 on 2026-11-30 in New York (22:00 in Shanghai).
      scheduled_at: Date.UTC(2026, 10, 30, 14, 0),
    },
  ],
  starts_at: Date.UTC(2026, 10, 30, 14, 0),
  ends_at: Date.UTC(2026, 11, 6, 23, 0),
};

/** The person fills the form (`name` only, once it is filled). */
async function fillForm(w: World, name: string, whole: boolean) {
  const form = within(w.formDrawer()!);
  const nameBox = form.getByRole('textbox', { name: text('matrixPlans.name') });
  await w.user.clear(nameBox);
  await w.user.type(nameBox, name);
  if (!whole) return;
  await w.user.click(await form.findByRole('checkbox', { name: SHOP.nickname }));
  await w.user.click(form.getByRole('button', { name: text('matrixPlans.pickVideos') }));
  const picker = await screen.findByTestId('resource-picker');
  await w.user.click(
    await within(picker).findByRole('checkbox', {
      name: fill('resources.select', { name: 'Clip 1' }),
    }),
  );
  await w.user.click(within(picker).getByRole('button', { name: text('taskForm.pickConfirm') }));
  await w.user.type(
    form.getByRole('textbox', { name: text('matrixPlans.titleInput') }),
    'Hello world',
  );
  await w.user.click(form.getByRole('button', { name: text('matrixPlans.addTitle') }));
  await w.user.selectOptions(
    form.getByRole('combobox', { name: text('matrixPlans.timezone') }),
    'America/New_York',
  );
}

type FormEvent = PlanFormEvent;

describe('the create form (plan form machine, form region)', () => {
  const rows = rowsUsed();
  const machine = createPlanFormMachine({
    fresh: () => ({
      name: '',
      accountIds: [],
      media: [],
      titles: [],
      topics: [],
      location: '',
      startDate: '2026-11-30',
      endDate: '2026-12-06',
      slots: ['09:00', '18:00'],
      dailyMax: '2',
      timezone: 'Asia/Shanghai',
    }),
    check: checkPlanDraft,
    checkImitate: () => null,
    maxTitles: 100,
  });
  type FormState = ReturnType<typeof machine.resolveState>;
  const events: FormEvent[] = [
    { type: 'OPEN' },
    { type: 'CLOSE' },
    { type: 'EDIT', patch: FILLED },
    { type: 'PREVIEW' },
    { type: 'SAVE' },
    { type: 'xstate.done.actor.preview', output: PREVIEW } as never,
    { type: 'xstate.error.actor.preview', error: replyError(REFUSAL) } as never,
    { type: 'xstate.done.actor.save', output: { id: 9, posts: 14 } } as never,
    { type: 'xstate.error.actor.save', error: replyError(REFUSAL) } as never,
  ];
  const name = (s: FormState) => {
    if (s.matches('closed')) return 'closed';
    const f = (s.value as { open: { form: string } }).open.form;
    if (f === 'previewing' || f === 'saving') return f;
    if (f === 'previewed') return s.context.error ? 'saveRefused' : 'previewed';
    if (s.context.error) return 'previewRefused';
    if (checkPlanDraft(s.context.draft).body) return 'filled';
    return s.context.checked ? 'refused' : 'blank';
  };
  const formLabel = (e: FormEvent) => (e.type === 'EDIT' ? 'FILL' : eventLabel(e));
  const list = paths<FormEvent>(
    machine,
    // Once closed, opening again starts afresh: the paths end there.
    ((s: FormState) =>
      events.filter(
        (e) => s.can(e as never) && !(e.type === 'OPEN' && s.context.completed),
      )) as never,
    ((s: FormState) => `${name(s)}:${s.context.completed}`) as never,
    FORM,
    'closed',
    formLabel,
  );
  test.each(list.map((p) => [pathName(p, formLabel), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      let filled = false;
      let current = '';
      let round = 0;
      const form = () => within(w.formDrawer()!);
      const previewButton = () => w.button(text('matrixPlans.preview'), w.formDrawer()!);
      const saveButton = () => w.button(text('matrixPlans.save'), w.formDrawer()!);
      const refusal = () => form().queryByRole('alert');
      const previewShown = () => {
        const p = within(form().getByTestId('plan-preview'));
        p.getByText(/14 posts, 2 per account per day/);
        // New York's wall clock, not Shanghai's.
        p.getByText('11/30/2026, 09:00');
        expect(p.queryByText(/22:00/)).toBeNull();
        p.getByText(SHOP.nickname);
      };
      const editing = (alert: boolean) => {
        expect(previewButton().getAttribute('aria-busy')).not.toBe('true');
        expect(saveButton().disabled).toBe(true);
        expect(form().queryByTestId('plan-preview')).toBeNull();
        if (alert) expect(refusal()!.textContent).toContain(REFUSAL);
        else expect(refusal()).toBeNull();
      };
      const sees: Record<string, () => void> = {
        closed: () => expect(w.formDrawer()).toBeNull(),
        blank: () => {
          editing(false);
          expect(form().getByRole('textbox', { name: text('matrixPlans.name') })).toHaveProperty(
            'value',
            '',
          );
        },
        refused: () => {
          editing(false);
          // The first invalid field (the name) has the focus and says why.
          const nameBox = form().getByRole('textbox', { name: text('matrixPlans.name') });
          expect(document.activeElement).toBe(nameBox);
          expect(nameBox.getAttribute('aria-invalid')).toBe('true');
          form().getByText(enUS['validation.planName']);
          form().getByText(enUS['validation.planAccounts']);
          form().getByText(enUS['validation.planMedia']);
          form().getByText(enUS['validation.planTitle']);
          expect(w.endpoints.calls).toEqual([]);
        },
        filled: () => {
          editing(false);
          expect(form().queryByText(enUS['validation.planName'])).toBeNull();
        },
        previewRefused: () => editing(true),
        previewing: () => {
          expect(previewButton().getAttribute('aria-busy')).toBe('true');
          expect(saveButton().disabled).toBe(true);
        },
        previewed: () => {
          previewShown();
          expect(saveButton().disabled).toBe(false);
          expect(refusal()).toBeNull();
        },
        saving: () => {
          previewShown();
          expect(saveButton().getAttribute('aria-busy')).toBe('true');
        },
        saveRefused: () => {
          previewShown();
          expect(saveButton().disabled).toBe(false);
          expect(refusal()!.textContent).toContain(REFUSAL);
        },
      };
      w.take();
      await runUiPath(
        path,
        {
          initial: 'closed',
          transitions: FORM,
          label: formLabel,
          sees,
          // A save reloads the list.
          effects: { take: w.take, expected: { 'saving done.save': ['plans'] } },
          exec: async (event) => {
            switch (formLabel(event)) {
              case 'OPEN':
                filled = false;
                await w.user.click(w.button(text('matrixPlans.new')));
                await vi.waitFor(() => form().getByRole('checkbox', { name: SHOP.nickname }));
                return;
              case 'CLOSE':
                return w.user.click(w.button(text('form.cancel'), w.formDrawer()!));
              case 'FILL':
                round += 1;
                current = filled ? `Launch ${round}` : 'Launch';
                await fillForm(w, current, !filled);
                filled = true;
                return;
              case 'PREVIEW':
                await w.user.click(previewButton());
                if (filled) {
                  expect(w.endpoints.calls.at(-1)).toEqual({
                    name: 'previewPlan',
                    input: [body(current), { quiet: true }],
                  });
                }
                return;
              case 'SAVE':
                await w.user.click(saveButton());
                expect(w.endpoints.calls.at(-1)).toEqual({
                  name: 'addPlan',
                  input: [body(current), { quiet: true }],
                });
                return;
              case 'done.preview':
                return w.endpoints.settle('previewPlan', 'done', PREVIEW);
              case 'error.preview':
                return w.endpoints.settle('previewPlan', 'error', replyError(REFUSAL));
              case 'done.save':
                return w.endpoints.settle('addPlan', 'done', { id: 9, posts: 14 });
              case 'error.save':
                return w.endpoints.settle('addPlan', 'error', replyError(REFUSAL));
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
          },
        },
        rows.used,
      );
      w.dispose();
    },
    30_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(FORM)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// AI titles (plan form machine, ai region): GENERATE from the typed title "Autumn sale", or with
// no title at all ("blank": refused before any call); the suggestions are demonstration output;
// CHOOSE ticks "Autumn sale now", ADD puts it in the titles.

const AI: Record<string, string> = {
  'closed OPEN': 'idle',
  'idle GENERATE': 'generating',
  'idle GENERATE blank': 'aiRefused',
  'generating done.imitate': 'shown',
  'generating error.imitate': 'aiFailed',
  'shown CHOOSE': 'chosen',
  'shown DISMISS': 'idle',
  'shown GENERATE': 'generating',
  'shown GENERATE blank': 'aiRefused',
  'chosen CHOOSE': 'shown',
  'chosen ADD': 'added',
  'chosen DISMISS': 'idle',
  'chosen GENERATE': 'generating',
  'chosen GENERATE blank': 'aiRefused',
  'aiFailed GENERATE': 'generating',
  'aiFailed GENERATE blank': 'aiRefused',
  'aiFailed DISMISS': 'idle',
  'aiRefused GENERATE': 'generating',
  'aiRefused DISMISS': 'idle',
};
const SUGGESTED = { titles: ['Autumn sale now', 'The autumn sale'], demonstration: true };

describe('AI titles (plan form machine, ai region)', () => {
  const rows = rowsUsed();
  const machine = createPlanFormMachine({
    fresh: () => ({
      name: '',
      accountIds: [],
      media: [],
      titles: [],
      topics: [],
      location: '',
      startDate: '2026-11-30',
      endDate: '2026-12-06',
      slots: ['09:00'],
      dailyMax: '1',
      timezone: 'Asia/Shanghai',
    }),
    check: checkPlanDraft,
    checkImitate: (b) => (b.title ? null : 'validation.aiTitle'),
    maxTitles: 100,
  });
  type AiState = ReturnType<typeof machine.resolveState>;
  const events: FormEvent[] = [
    { type: 'OPEN' },
    { type: 'GENERATE', request: { title: 'Autumn sale', count: 5, platform: 'douyin' } },
    { type: 'GENERATE', request: { title: '', count: 5, platform: 'douyin' } },
    { type: 'xstate.done.actor.imitate', output: SUGGESTED } as never,
    { type: 'xstate.error.actor.imitate', error: replyError(REFUSAL) } as never,
    { type: 'CHOOSE', title: 'Autumn sale now' },
    { type: 'ADD' },
    { type: 'DISMISS' },
  ];
  const aiLabel = (e: FormEvent) =>
    e.type === 'GENERATE' ? (e.request.title ? 'GENERATE' : 'GENERATE blank') : eventLabel(e);
  const name = (s: AiState) => {
    if (s.matches('closed')) return 'closed';
    const ai = (s.value as { open: { ai: string } }).open.ai;
    if (ai === 'idle') return s.context.draft.titles.length ? 'added' : 'idle';
    if (ai === 'shown') return s.context.chosen.length ? 'chosen' : 'shown';
    if (ai === 'failed')
      return s.context.aiError === 'validation.aiTitle' ? 'aiRefused' : 'aiFailed';
    return ai;
  };
  const list = paths<FormEvent>(
    machine,
    // The AI button is busy while a call runs; the paths end once a title is added.
    ((s: AiState) =>
      name(s) === 'added'
        ? []
        : events.filter(
            (e) => s.can(e as never) && !(e.type === 'GENERATE' && s.hasTag('generating')),
          )) as never,
    ((s: AiState) => name(s)) as never,
    AI,
    'closed',
    aiLabel,
  );
  test.each(list.map((p) => [pathName(p, aiLabel), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      const form = () => within(w.formDrawer()!);
      const aiButton = () => w.button(text('matrixPlans.aiTitles'), w.formDrawer()!);
      const panel = () => form().queryByTestId('ai-titles');
      const box = () =>
        within(panel()!).getByRole('checkbox', { name: 'Autumn sale now' }) as HTMLInputElement;
      const addButton = (count: number) =>
        w.button(fill('matrixPlans.addChosen', { count }), panel()!);
      const noTitles = () => form().getByText(text('matrixPlans.noTitles'));
      const suggestions = (count: number) => {
        within(panel()!).getByText(text('matrixPlans.demonstration'));
        expect(box().checked).toBe(count > 0);
        expect(addButton(count).disabled).toBe(count === 0);
      };
      const sees: Record<string, () => void> = {
        closed: () => expect(w.formDrawer()).toBeNull(),
        idle: () => {
          expect(panel()).toBeNull();
          expect(aiButton().getAttribute('aria-busy')).not.toBe('true');
          noTitles();
        },
        generating: () => {
          expect(aiButton().getAttribute('aria-busy')).toBe('true');
          expect(panel()).toBeNull();
        },
        shown: () => suggestions(0),
        chosen: () => suggestions(1),
        added: () => {
          expect(panel()).toBeNull();
          const titles = within(form().getByRole('list', { name: text('matrixPlans.titles') }));
          expect(titles.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
            'Autumn sale now',
          ]);
        },
        aiFailed: () => expect(panel()!.textContent).toContain(REFUSAL),
        aiRefused: () => {
          expect(panel()!.getAttribute('role')).toBe('alert');
          expect(panel()!.textContent).toContain(enUS['validation.aiTitle']);
          noTitles();
        },
      };
      await runUiPath(
        path,
        {
          initial: 'closed',
          transitions: AI,
          label: aiLabel,
          sees,
          exec: async (event) => {
            const calls = w.endpoints.calls.length;
            switch (aiLabel(event)) {
              case 'OPEN':
                return w.user.click(w.button(text('matrixPlans.new')));
              case 'GENERATE':
              case 'GENERATE blank': {
                const typed = aiLabel(event) === 'GENERATE' ? 'Autumn sale' : '';
                const box = form().getByRole('textbox', { name: text('matrixPlans.titleInput') });
                await w.user.clear(box);
                if (typed) await w.user.type(box, typed);
                await w.user.click(aiButton());
                expect(w.endpoints.calls.slice(calls)).toEqual(
                  typed
                    ? [
                        {
                          name: 'imitateTitle',
                          input: [{ title: typed, count: 5, platform: 'douyin' }, { quiet: true }],
                        },
                      ]
                    : [],
                );
                return;
              }
              case 'done.imitate':
                return w.endpoints.settle('imitateTitle', 'done', SUGGESTED);
              case 'error.imitate':
                return w.endpoints.settle('imitateTitle', 'error', replyError(REFUSAL));
              case 'CHOOSE':
                return w.user.click(box());
              case 'ADD':
                return w.user.click(addButton(1));
              case 'DISMISS':
                return w.user.click(
                  within(panel()!).getByRole('button', {
                    name:
                      panel()!.getAttribute('role') === 'alert'
                        ? text('matrix.dismiss')
                        : text('matrixPlans.dismissAi'),
                  }),
                );
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
          },
        },
        rows.used,
      );
      w.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(AI)).toEqual([]);
  });
});

describe('the create form, by hand', () => {
  test('a refused draft takes the person to its first invalid field (the titles)', async () => {
    const w = await setup();
    await w.user.click(w.button(text('matrixPlans.new')));
    await vi.waitFor(() => within(w.formDrawer()!).getByRole('checkbox', { name: SHOP.nickname }));
    await fillForm(w, 'Launch', true);
    const form = within(w.formDrawer()!);
    await w.user.click(
      form.getByRole('button', { name: fill('matrixPlans.removeTitle', { title: 'Hello world' }) }),
    );
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.preview') }));
    expect(document.activeElement).toBe(
      form.getByRole('textbox', { name: text('matrixPlans.titleInput') }),
    );
    form.getByText(enUS['validation.planTitle']);
    expect(form.queryByText(enUS['validation.planName'])).toBeNull();
    expect(w.endpoints.calls).toEqual([]);
    // A bad time slot and an end before the start: said, nothing sent.
    await w.user.type(form.getByRole('textbox', { name: text('matrixPlans.titleInput') }), 'Hi');
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.addTitle') }));
    await w.user.type(form.getByRole('textbox', { name: text('matrixPlans.newSlot') }), '25:00');
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.addSlot') }));
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.preview') }));
    form.getByText(enUS['validation.planSlot']);
    expect(w.endpoints.calls).toEqual([]);
    w.dispose();
  });

  test('AI titles: made from the typed title, labelled as demonstration output, the chosen ones added', async () => {
    const w = await setup();
    await w.user.click(w.button(text('matrixPlans.new')));
    const form = within(w.formDrawer()!);
    // No title typed yet: the request is refused before any call.
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.aiTitles') }));
    expect(form.getByRole('alert').textContent).toContain(enUS['validation.aiTitle']);
    expect(w.endpoints.calls).toEqual([]);
    await w.user.click(form.getByRole('button', { name: text('matrix.dismiss') }));
    await w.user.type(
      form.getByRole('textbox', { name: text('matrixPlans.titleInput') }),
      'Autumn sale',
    );
    await w.user.selectOptions(
      form.getByRole('combobox', { name: text('matrixPlans.aiCount') }),
      '3',
    );
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.aiTitles') }));
    expect(w.endpoints.calls.at(-1)).toEqual({
      name: 'imitateTitle',
      input: [{ title: 'Autumn sale', count: 3, platform: 'douyin' }, { quiet: true }],
    });
    await w.endpoints.settle('imitateTitle', 'done', {
      titles: ['Autumn sale now', 'The autumn sale', 'Sale of autumn'],
      demonstration: true,
    });
    const ai = within(form.getByTestId('ai-titles'));
    ai.getByText(text('matrixPlans.demonstration'));
    await w.user.click(ai.getByRole('checkbox', { name: 'Autumn sale now' }));
    await w.user.click(ai.getByRole('checkbox', { name: 'Sale of autumn' }));
    await w.user.click(
      ai.getByRole('button', { name: fill('matrixPlans.addChosen', { count: 2 }) }),
    );
    expect(form.queryByTestId('ai-titles')).toBeNull();
    const titles = within(form.getByRole('list', { name: text('matrixPlans.titles') }));
    expect(titles.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Autumn sale now',
      'Sale of autumn',
    ]);
    // A real model's titles carry no label; a refusal is said.
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.aiTitles') }));
    await w.endpoints.settle('imitateTitle', 'done', { titles: ['Other'], demonstration: false });
    expect(
      within(form.getByTestId('ai-titles')).queryByText(text('matrixPlans.demonstration')),
    ).toBeNull();
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.aiTitles') }));
    await w.endpoints.settle('imitateTitle', 'error', replyError(REFUSAL));
    expect(form.getByRole('alert').textContent).toContain(REFUSAL);
    w.dispose();
  });
});

// ---------------------------------------------------------------------------------------------
// The list and the detail.

describe('the list', () => {
  test('each row: name, status, dates and zone, counts by status, its actions', async () => {
    const w = await setup();
    const table = screen.getByRole('table', { name: text('matrixPlans.list') });
    const [, springRow, autumnRow] = within(table).getAllByRole('row');
    const spring = within(springRow);
    spring.getByText(text('matrixPlans.statusRunning'));
    spring.getByText(fill('matrixPlans.dateRange', { start: '2026-11-20', end: '2026-12-10' }));
    spring.getByText('America/New_York');
    const counts = within(
      spring.getByRole('group', { name: fill('matrixPlans.countsOf', { name: 'Spring' }) }),
    );
    counts.getByText(fill('matrixPlans.total', { count: 9 }));
    counts.getByText(`${text('matrixPlans.postPublished')} 3`);
    counts.getByText(`${text('matrixPlans.postFailed')} 1`);
    counts.getByText(`${text('matrixPlans.postWaiting')} 5`);
    expect(spring.queryByRole('button', { name: /Resume/ })).toBeNull();
    const autumn = within(autumnRow);
    autumn.getByText(text('matrixPlans.statusPaused'));
    expect(autumn.queryByRole('button', { name: /Pause/ })).toBeNull();
    autumn.getByRole('button', { name: fill('matrixPlans.cancelOf', { name: 'Autumn' }) });
    w.dispose();
  });

  test('the status filter goes to the list call; Reset clears it', async () => {
    const w = await setup();
    // The bar is drawn again with each applied filter.
    const search = () => within(screen.getByRole('search', { name: text('matrixPlans.filters') }));
    await w.user.selectOptions(
      search().getByRole('combobox', { name: text('matrix.status') }),
      'paused',
    );
    await w.user.click(search().getByRole('button', { name: text('filter.search') }));
    expect(w.queries.at(-1)).toEqual({ status: 'paused', page: 1, limit: 20 });
    await vi.waitFor(() => expect(screen.queryByText('Spring')).toBeNull());
    screen.getByText('Autumn');
    await w.user.selectOptions(
      search().getByRole('combobox', { name: text('matrix.status') }),
      'done',
    );
    await w.user.click(search().getByRole('button', { name: text('filter.search') }));
    await vi.waitFor(() => screen.getByText(text('matrixPlans.noMatch')));
    await w.user.click(
      within(screen.getByRole('search', { name: text('matrixPlans.filters') })).getByRole(
        'button',
        {
          name: text('filter.reset'),
        },
      ),
    );
    expect(w.queries.at(-1)).toEqual({ page: 1, limit: 20 });
    await vi.waitFor(() => screen.getByText('Spring'));
    w.dispose();
  });

  test('paging: Next page asks for page 2', async () => {
    const w = await setup({ total: 45 });
    const pages = within(
      screen.getByRole('navigation', {
        name: fill('table.pagination', { table: text('matrixPlans.list') }),
      }),
    );
    pages.getByText(fill('table.pageOf', { page: 1, pages: 3 }));
    await w.user.click(pages.getByRole('button', { name: text('table.next') }));
    expect(w.queries.at(-1)).toEqual({ page: 2, limit: 20 });
    await vi.waitFor(() => pages.getByText(fill('table.pageOf', { page: 2, pages: 3 })));
    w.dispose();
  });

  test('no plans at all: says how to start', async () => {
    const w = await setup({ plans: [] });
    screen.getByText(text('matrixPlans.empty'));
    w.dispose();
  });
});

describe('the detail', () => {
  test('a plan’s posts: times in its zone, reasons, link and numbers, the actions each allows', async () => {
    const w = await setup();
    await openSpring(w);
    expect(w.postQueries.at(-1)).toEqual({ plan_id: 1, page: 1, limit: 20 });
    const drawer = within(w.detail()!);
    drawer.getByRole('heading', { name: fill('matrixPlans.detailTitle', { name: 'Spring' }) });
    drawer.getByText(fill('matrixPlans.timesIn', { timezone: 'America/New_York' }));
    const table = within(drawer.getByRole('table', { name: text('matrixPlans.postList') }));
    const [, waiting, failed, rejected, published] = table.getAllByRole('row');
    within(waiting).getByText('12/02/2026, 09:00');
    within(waiting).getByText(text('matrixPlans.postWaiting'));
    within(waiting).getByRole('button', {
      name: fill('matrixPlans.publishNowOf', { name: postName(WAITING) }),
    });
    within(failed).getByText(
      `The platform is busy ${fill('matrixPlans.platformSaid', { code: 2190001, text: 'frequency limit' })}`,
    );
    within(failed).getByRole('button', {
      name: fill('matrixPlans.retryOf', { name: postName(FAILED) }),
    });
    within(rejected).getByText(/The platform cannot use this file/);
    within(rejected).getByText(/2190005 bad media/);
    expect(within(rejected).queryByRole('button')).toBeNull();
    const link = within(published).getByRole('link', {
      name: fill('matrixPlans.openPostOf', { title: PUBLISHED.title }),
    });
    expect(link.getAttribute('href')).toBe(PUBLISHED.share_url);
    within(published).getByText(
      fill('matrixPlans.metrics', { plays: '1,234', likes: 56, comments: 7, shares: 8 }),
    );
    // Assisted posts (waiting, missed): a to-do, never "publish now".
    for (const p of [ASSISTED, MISSED]) {
      const row = table.getByText(p.title).closest('tr')!;
      const name = postName(p);
      const download = within(row).getByRole('link', {
        name: fill('matrixPlans.downloadVideoOf', { name }),
      });
      expect(download.getAttribute('href')).toBe(p.assisted!.download_url);
      await w.user.click(
        within(row).getByRole('button', { name: fill('matrixPlans.copyTextOf', { name }) }),
      );
      expect(await navigator.clipboard.readText()).toBe(p.assisted!.text);
      within(row).getByRole('button', { name: fill('matrixPlans.markPublishedOf', { name }) });
      expect(
        within(row).queryByRole('button', { name: fill('matrixPlans.publishNowOf', { name }) }),
      ).toBeNull();
    }
    // Closed and opened again: the posts are asked for again.
    await w.user.click(drawer.getByRole('button', { name: text('form.close') }));
    await vi.waitFor(() => expect(w.detail()).toBeNull());
    const before = w.postQueries.length;
    await openSpring(w);
    expect(w.postQueries.length).toBeGreaterThan(before);
    w.dispose();
  });
});
