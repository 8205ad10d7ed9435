/**
 * The release plan form's new ways in (src/machines/plan-form.ts), driven as a merchant would on
 * /matrix-distribution/release-plan, against a hand-written oracle (EDIT below):
 * - "Edit" in the detail of a plan not started: the form opens filled in and previews at once;
 *   Save sends `plan_edit` with the plan's id; a refused preview or save is said in the form;
 * - a "publish" link (`?media=video_output:41,dh_video:7`, what a finished task's or a
 *   digital-human video's Publish button opens): the form opens with those videos once named; a
 *   video no longer usable is left out and said; a refused call is said;
 * - the finished creations dialog (OPEN_CREATIONS / CLOSE_CREATIONS) over the form.
 * The machine's shortest paths only propose event sequences; each step is a click, a link
 * followed or a fake endpoint settling, and what the person sees after it is checked from the
 * table, never from the machine.
 */
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { getShortestPaths } from 'xstate/graph';
import type { PlanMediaItem, PlanPreview, ReleasePlan } from '../../src/api/contract/matrix-plans';
import { provideArea } from '../../src/app/actors/areas';
import {
  checkPlanDraft,
  draftOfPlan,
  matrixPlansArea,
  planEditable,
  type MatrixPlansEndpoints,
} from '../../src/app/actors/matrix-plans';
import { Providers } from '../../src/app/boot/providers';
import { fill, text } from './messages';
import { createPlanFormMachine, type PlanFormEvent } from '../../src/machines/plan-form';
import { parseMediaRefs, publishLink } from '../../src/views/shared/deep-links';
import ReleasePlanPage from '../../src/views/matrix/release-plan-page';
import { replyError } from './fixtures';
import { shopAuth } from './video-task-fixtures';
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
import { SHOP } from './matrix-plans-world';

const NOW = Date.UTC(2026, 10, 29, 4, 0);
const REFUSAL = 'Refused by the server';

/** Not started: editable. Running: not. */
const DRAFTED: ReleasePlan = {
  id: 2,
  name: 'Autumn',
  status: 'not_started',
  timezone: 'Asia/Shanghai',
  start_date: '2026-12-01',
  end_date: '2026-12-03',
  slots: ['09:00'],
  daily_max: 1,
  titles: ['Hello'],
  topics: ['sale'],
  location: '310000',
  account_ids: [1],
  media: [{ type: 'resource', id: 31, name: 'Clip 1' }],
  counts: { waiting: 3 },
  total: 3,
  created_at: 0,
};
const RUNNING: ReleasePlan = {
  ...DRAFTED,
  id: 1,
  name: 'Spring',
  status: 'running',
  counts: { published: 1, waiting: 2 },
};
const OUTPUT: PlanMediaItem = {
  type: 'video_output',
  id: 41,
  name: 'Spring sale #1',
  created_at: 0,
};
const DH: PlanMediaItem = { type: 'dh_video', id: 7, name: 'Avatar talk', created_at: 0 };
const LINK = publishLink([
  { type: 'video_output', id: 41 },
  { type: 'dh_video', id: 7 },
]);

const PREVIEW: PlanPreview = {
  total: 3,
  per_account_day: 1,
  per_media: [3],
  first: [
    {
      account_id: 1,
      media: { type: 'resource', id: 31, name: 'Clip 1' },
      title: 'Hello',
      scheduled_at: Date.UTC(2026, 11, 1, 1, 0),
    },
  ],
  starts_at: Date.UTC(2026, 11, 1, 1, 0),
  ends_at: Date.UTC(2026, 11, 3, 1, 0),
};

viewPathHooks();

async function setup() {
  const endpoints = fakeEndpoints();
  const actors = appActors({ auth: shopAuth() });
  const effects: string[] = [];
  const pendingMedia = endpoints.endpoint('getPlanMedia') as MatrixPlansEndpoints['getPlanMedia'];
  provideArea(actors, matrixPlansArea, {
    getPlans: async () => {
      effects.push('plans');
      return { list: [RUNNING, DRAFTED], total: 2 };
    },
    previewPlan: endpoints.endpoint('previewPlan') as never,
    addPlan: endpoints.endpoint('addPlan') as never,
    editPlan: endpoints.endpoint('editPlan') as never,
    // A link's videos wait to be settled; the creations dialog's list answers at once.
    getPlanMedia: (query, options) =>
      query.ids
        ? pendingMedia(query, options)
        : Promise.resolve(
            query.type === 'video_output' ? { list: [OUTPUT], total: 1 } : { list: [DH], total: 1 },
          ),
    pausePlan: endpoints.endpoint('pausePlan') as never,
    resumePlan: endpoints.endpoint('resumePlan') as never,
    cancelPlan: endpoints.endpoint('cancelPlan') as never,
    getPosts: async () => {
      effects.push('posts');
      return { list: [], total: 0 };
    },
    publishNow: endpoints.endpoint('publishNow') as never,
    retryPost: endpoints.endpoint('retryPost') as never,
    markPublished: endpoints.endpoint('markPublished') as never,
    imitateTitle: endpoints.endpoint('imitateTitle') as never,
    getAccounts: async () => ({ list: [SHOP], total: 1 }),
    getResources: async () => ({ list: [], total: 0 }),
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
  await vi.waitFor(() => screen.getByRole('heading', { name: text('route.releasePlan') }), {
    timeout: 5000,
  });
  await vi.waitFor(() => screen.getByText('Autumn'), { timeout: 5000 });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
  const openOne = (id: string) => {
    const el = screen.queryByTestId(id);
    return el && isOpen(el) ? el : null;
  };
  return {
    endpoints,
    router,
    user: person(),
    formDrawer: () => openOne('plan-form'),
    detail: () => openOne('plan-detail'),
    creations: () => openOne('plan-creations'),
    take: () => effects.splice(0),
    dispose: () => actors.dispose(),
  };
}

const eventLabel = (e: { type: string }) => e.type.replace(/^xstate\./, '').replace('.actor', '');

const EDIT: Record<string, string> = {
  // Edit in the detail of a plan not started: filled in, previewed at once.
  'closed OPEN_EDIT': 'editPreviewing',
  'editPreviewing done.preview': 'editPreviewed',
  'editPreviewing error.preview': 'editRefused',
  'editRefused PREVIEW': 'editPreviewing',
  'editRefused CLOSE': 'closed',
  'editPreviewed SAVE': 'editSaving',
  'editPreviewed PREVIEW': 'editPreviewing',
  'editPreviewed CLOSE': 'closed',
  'editSaving done.save': 'closed',
  'editSaving error.save': 'editSaveRefused',
  'editSaveRefused SAVE': 'editSaving',
  'editSaveRefused CLOSE': 'closed',
  // A "publish" link followed.
  'closed OPEN_WITH_MEDIA': 'resolving',
  'resolving CLOSE': 'closed',
  'resolving done.resolveMedia': 'withMedia',
  'resolving done.resolveMedia partly': 'withSomeMedia',
  'resolving error.resolveMedia': 'mediaRefused',
  'withMedia CLOSE': 'closed',
  'withSomeMedia CLOSE': 'closed',
  'mediaRefused CLOSE': 'closed',
  // The finished creations over the form.
  'withMedia OPEN_CREATIONS': 'creations',
  'creations CLOSE_CREATIONS': 'withMedia',
};

describe('edit and publish links (plan form machine: OPEN {planId}, OPEN_WITH_MEDIA, creations)', () => {
  const rows = rowsUsed();
  const machine = createPlanFormMachine({
    fresh: () => ({ ...draftOfPlan(DRAFTED), name: '', media: [], titles: [], accountIds: [] }),
    check: checkPlanDraft,
    checkImitate: () => null,
    maxTitles: 100,
  });
  type FormState = ReturnType<typeof machine.resolveState>;
  const both = [
    { type: 'video_output', id: 41, name: OUTPUT.name },
    { type: 'dh_video', id: 7, name: DH.name },
  ];
  const events: PlanFormEvent[] = [
    { type: 'OPEN', planId: DRAFTED.id, draft: draftOfPlan(DRAFTED) },
    { type: 'OPEN_WITH_MEDIA', refs: parseMediaRefs('video_output:41,dh_video:7') },
    { type: 'CLOSE' },
    { type: 'PREVIEW' },
    { type: 'SAVE' },
    { type: 'OPEN_CREATIONS' },
    { type: 'CLOSE_CREATIONS' },
    { type: 'xstate.done.actor.preview', output: PREVIEW } as never,
    { type: 'xstate.error.actor.preview', error: replyError(REFUSAL) } as never,
    { type: 'xstate.done.actor.save', output: { id: 2, posts: 3 } } as never,
    { type: 'xstate.error.actor.save', error: replyError(REFUSAL) } as never,
    { type: 'xstate.done.actor.resolveMedia', output: both } as never,
    { type: 'xstate.done.actor.resolveMedia', output: both.slice(0, 1) } as never,
    { type: 'xstate.error.actor.resolveMedia', error: replyError(REFUSAL) } as never,
  ];
  const label = (e: PlanFormEvent) => {
    if (e.type === 'OPEN') return 'OPEN_EDIT';
    const output = (e as { output?: unknown[] }).output;
    if ((e.type as string) === 'xstate.done.actor.resolveMedia' && output?.length === 1)
      return 'done.resolveMedia partly';
    return eventLabel(e);
  };
  const name = (s: FormState) => {
    if (s.matches('closed')) return 'closed';
    if (s.hasTag('resolving')) return 'resolving';
    const c = s.context;
    if (c.planId !== null) {
      if (s.hasTag('saving')) return 'editSaving';
      if (s.hasTag('previewing')) return 'editPreviewing';
      if (s.hasTag('previewed')) return c.error ? 'editSaveRefused' : 'editPreviewed';
      return c.error ? 'editRefused' : 'editing';
    }
    if (s.hasTag('creations')) return 'creations';
    if (c.error === 'matrixPlans.mediaMissing') return 'withSomeMedia';
    if (c.error) return 'mediaRefused';
    return c.draft.media.length > 0 ? 'withMedia' : 'blank';
  };
  const proposed = getShortestPaths(machine, {
    // A path ends where the form closes after a save; a link's form is not filled in here.
    events: ((s: FormState) =>
      events.filter(
        (e) =>
          s.can(e as never) &&
          !(s.context.completed && (e.type === 'OPEN' || e.type === 'OPEN_WITH_MEDIA')) &&
          !(s.context.planId === null && ['PREVIEW', 'SAVE'].includes(e.type)) &&
          !(s.context.planId !== null && e.type === 'OPEN_CREATIONS'),
      )) as never,
    serializeState: (s, e) =>
      JSON.stringify([
        name(s as never),
        (s as FormState).context.completed,
        e ? label(e as never) : '',
      ]),
  });
  const list = withoutPrefixes(
    coverRows(proposed as unknown as EventPath<PlanFormEvent>[], {
      initial: 'closed',
      transitions: EDIT,
      label,
    }),
    (e) => label(e as PlanFormEvent),
  );
  test.each(list.map((p) => [pathName(p, label), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      const form = () => within(w.formDrawer()!);
      const button = (name: string) => form().getByRole('button', { name });
      const previewButton = () => button(text('matrixPlans.preview')) as HTMLButtonElement;
      const saveButton = () => button(text('matrixPlans.save')) as HTMLButtonElement;
      const refusal = () => form().queryByRole('alert');
      const videos = () =>
        within(form().getByRole('list', { name: text('matrixPlans.videos') }))
          .getAllByRole('listitem')
          .map((li) => li.textContent);
      const editForm = () => {
        form().getByRole('heading', { name: text('matrixPlans.editTitle') });
        expect(form().getByRole('textbox', { name: text('matrixPlans.name') })).toHaveProperty(
          'value',
          'Autumn',
        );
        expect(w.detail()).toBeNull();
      };
      const newForm = (shown: string[]) => {
        form().getByRole('heading', { name: text('matrixPlans.formTitle') });
        expect(videos()).toEqual(shown);
        expect(w.creations()).toBeNull();
      };
      const sees: Record<string, () => void> = {
        closed: () => expect(w.formDrawer()).toBeNull(),
        editPreviewing: () => {
          editForm();
          expect(previewButton().getAttribute('aria-busy')).toBe('true');
          expect(saveButton().disabled).toBe(true);
        },
        editPreviewed: () => {
          editForm();
          form().getByTestId('plan-preview');
          expect(saveButton().disabled).toBe(false);
          expect(refusal()).toBeNull();
        },
        editRefused: () => {
          editForm();
          expect(refusal()!.textContent).toContain(REFUSAL);
          expect(saveButton().disabled).toBe(true);
        },
        editSaving: () => {
          editForm();
          expect(saveButton().getAttribute('aria-busy')).toBe('true');
        },
        editSaveRefused: () => {
          editForm();
          expect(refusal()!.textContent).toContain(REFUSAL);
          expect(saveButton().disabled).toBe(false);
        },
        resolving: () => {
          form().getByRole('status');
          form().getByText(text('matrixPlans.loadingMedia'));
        },
        withMedia: () => {
          newForm([OUTPUT.name, DH.name]);
          expect(refusal()).toBeNull();
        },
        withSomeMedia: () => {
          newForm([OUTPUT.name]);
          expect(refusal()!.textContent).toContain(text('matrixPlans.mediaMissing'));
        },
        mediaRefused: () => {
          form().getByRole('heading', { name: text('matrixPlans.formTitle') });
          expect(refusal()!.textContent).toContain(REFUSAL);
        },
        creations: () => {
          const d = within(w.creations()!);
          d.getByRole('heading', { name: text('matrixPlans.creationsTitle') });
          // What the link chose is ticked.
          expect(d.getByRole('checkbox', { name: OUTPUT.name })).toHaveProperty('checked', true);
        },
      };
      w.take();
      await runUiPath(
        path,
        {
          initial: 'closed',
          transitions: EDIT,
          label,
          sees,
          effects: {
            take: () => w.take().sort(),
            expected: {
              // The detail is opened first (its posts load) to find Edit.
              'closed OPEN_EDIT': ['posts'],
              // Saved: the list and the plan's posts reload.
              'editSaving done.save': ['plans', 'posts'],
            },
          },
          exec: async (event) => {
            switch (label(event)) {
              case 'OPEN_EDIT': {
                await w.user.click(
                  screen.getByRole('button', {
                    name: fill('matrixPlans.postsOf', { name: 'Autumn' }),
                  }),
                );
                await vi.waitFor(() => expect(w.detail()).not.toBeNull());
                // A running plan has no Edit.
                expect(
                  within(w.detail()!).queryByRole('button', {
                    name: fill('matrixPlans.editOf', { name: 'Spring' }),
                  }),
                ).toBeNull();
                await w.user.click(
                  within(w.detail()!).getByRole('button', {
                    name: fill('matrixPlans.editOf', { name: 'Autumn' }),
                  }),
                );
                await vi.waitFor(() => expect(w.formDrawer()).not.toBeNull());
                expect(w.endpoints.calls.at(-1)?.name).toBe('previewPlan');
                return;
              }
              case 'OPEN_WITH_MEDIA':
                await act(async () => {
                  await w.router.navigate(LINK);
                });
                await vi.waitFor(() => expect(w.formDrawer()).not.toBeNull());
                // The link is taken out of the address once followed.
                expect(w.router.state.location.search).toBe('');
                expect(w.endpoints.calls.at(-1)).toEqual({
                  name: 'getPlanMedia',
                  input: [{ type: 'video_output', ids: '41', page: 1, limit: 1 }, { quiet: true }],
                });
                return;
              case 'CLOSE':
                return w.user.click(button(text('form.close')));
              case 'PREVIEW':
                return w.user.click(previewButton());
              case 'SAVE': {
                await w.user.click(saveButton());
                expect(w.endpoints.calls.at(-1)).toEqual({
                  name: 'editPlan',
                  input: [
                    {
                      id: DRAFTED.id,
                      name: 'Autumn',
                      account_ids: [1],
                      media: [{ type: 'resource', id: 31 }],
                      titles: ['Hello'],
                      topics: ['sale'],
                      location: '310000',
                      start_date: '2026-12-01',
                      end_date: '2026-12-03',
                      slots: ['09:00'],
                      daily_max: 1,
                      timezone: 'Asia/Shanghai',
                    },
                    { quiet: true },
                  ],
                });
                return;
              }
              case 'OPEN_CREATIONS':
                await w.user.click(button(text('matrixPlans.pickCreations')));
                await vi.waitFor(() => expect(w.creations()).not.toBeNull());
                await vi.waitFor(() =>
                  within(w.creations()!).getByRole('checkbox', { name: OUTPUT.name }),
                );
                return;
              case 'CLOSE_CREATIONS':
                return w.user.click(
                  within(w.creations()!).getByRole('button', {
                    name: text('matrixPlans.creationsDone'),
                  }),
                );
              case 'done.preview':
                return w.endpoints.settle('previewPlan', 'done', PREVIEW);
              case 'error.preview':
                return w.endpoints.settle('previewPlan', 'error', replyError(REFUSAL));
              case 'done.save':
                return w.endpoints.settle('editPlan', 'done', DRAFTED);
              case 'error.save':
                return w.endpoints.settle('editPlan', 'error', replyError(REFUSAL));
              case 'done.resolveMedia':
                await w.endpoints.settle('getPlanMedia', 'done', { list: [OUTPUT], total: 1 });
                return w.endpoints.settle('getPlanMedia', 'done', { list: [DH], total: 1 });
              case 'done.resolveMedia partly':
                // The digital-human video is no longer usable (deleted, say).
                await w.endpoints.settle('getPlanMedia', 'done', { list: [OUTPUT], total: 1 });
                return w.endpoints.settle('getPlanMedia', 'done', { list: [], total: 0 });
              case 'error.resolveMedia':
                return w.endpoints.settle('getPlanMedia', 'error', replyError(REFUSAL));
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
    expect(rows.unused(EDIT)).toEqual([]);
  });
});

describe('by hand', () => {
  test('a plan is editable while not started, or paused with every post waiting', () => {
    expect(planEditable(DRAFTED)).toBe(true);
    expect(planEditable({ ...DRAFTED, status: 'paused' })).toBe(true);
    expect(planEditable({ ...DRAFTED, status: 'paused', counts: { waiting: 2, failed: 1 } })).toBe(
      false,
    );
    expect(planEditable(RUNNING)).toBe(false);
    expect(planEditable({ ...DRAFTED, status: 'cancelled' })).toBe(false);
  });
  test('a publish link names kinds and ids; anything else in it is left out', () => {
    expect(LINK).toBe('/matrix-distribution/release-plan?media=video_output%3A41%2Cdh_video%3A7');
    expect(
      parseMediaRefs('video_output:41,dh_video:7,resource:3,dh_video:x,video_output:41'),
    ).toEqual([
      { type: 'video_output', id: 41 },
      { type: 'dh_video', id: 7 },
    ]);
  });
});
