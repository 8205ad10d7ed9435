/**
 * The release plans page (/matrix-distribution/release-plan) driven as a merchant would, against
 * hand-written oracles:
 * - the page machine (src/machines/matrix-plans.ts): its shortest paths only propose event
 *   sequences for the plan actions (pause, resume, cancel with its confirmation) and the post
 *   actions of the detail (publish now, retry), each followed by its notice; each step is a click
 *   or a fake endpoint settling, and what the person sees after it is checked from the tables below
 *   (PLAN, POST), never from the machine; each outcome reloads the lists (effects);
 * - marking an assisted post published (its dialog's machine, MARK);
 * - by hand: the list (rows, status filter, paging), the detail (reasons, links, numbers, times in
 *   the plan's zone).
 * The create form is tested in matrix-plan-form-view.test.tsx.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { PlanPost } from '../../src/api/contract/matrix-plans';
import enUS from '../../src/i18n/en-US';
import { fill, text } from './messages';
import {
  createCustomerDialogMachine,
  type CustomerDialogEvent,
} from '../../src/machines/customers/customer-dialog';
import { matrixPlansMachine, type MatrixPlansEvent } from '../../src/machines/matrix-plans';
import { replyError } from './fixtures';
import { pathName, rowsUsed, runUiPath, viewPathHooks } from './ui-paths';
import {
  REFUSAL,
  RUNNING,
  WAITING,
  FAILED,
  PUBLISHED,
  ASSISTED,
  MISSED,
  SHOP,
  setup,
  type World,
  paths,
  eventLabel,
} from './matrix-plans-world';

// Here, not in the shared world module: a module runs once per worker (isolate: false).
viewPathHooks();

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

test('mark published: a refused link is refused in the form, sends nothing; reopened, the field is fresh', async () => {
  const w = await setup();
  await openSpring(w);
  const mark = () =>
    w.button(fill('matrixPlans.markPublishedOf', { name: postName(ASSISTED) }), w.detail()!);
  const dialog = () =>
    w
      .dialogs()
      .filter((d) => d.getAttribute('role') === 'dialog')
      .find((d) =>
        within(d).queryByRole('heading', {
          name: fill('matrixPlans.markPublishedTitle', { title: ASSISTED.title }),
        }),
      ) ?? null;
  const box = () =>
    within(dialog()!).getByRole('textbox', {
      name: text('matrixPlans.shareUrl'),
    }) as HTMLInputElement;
  const open = async () => {
    await w.user.click(mark());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
  };
  await open();
  const before = w.endpoints.calls.length;
  await w.user.click(box());
  await w.user.paste('v.douyin.example/abc');
  await w.user.click(w.button(text('matrixPlans.markPublished'), dialog()!));
  // The contract's message under the field (the field says it is wrong); nothing sent.
  within(dialog()!).getByText(enUS['validation.shareUrl']);
  expect(box().getAttribute('aria-invalid')).toBe('true');
  expect(w.endpoints.calls.length).toBe(before);

  await w.user.click(w.button(text('form.cancel'), dialog()!));
  expect(dialog()).toBeNull();
  await open();
  expect(box().value).toBe('');
  expect(within(dialog()!).queryByText(enUS['validation.shareUrl'])).toBeNull();
  expect(w.endpoints.calls.length).toBe(before);
  w.dispose();
}, 20_000);

// ---------------------------------------------------------------------------------------------
// The create form. FILL: the person fills every field (Shop A, Clip 1 from the picker, one title,
// New York); once filled, FILL changes the name (the draft stays valid).

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
