/**
 * The release plans area (/matrix-distribution/release-plan, docs/domain.md §20): the list of the
 * caller's plans (status filter, pages), the posts of the plan whose detail is open, the page's
 * machine (pause / resume / cancel, the detail, publish now / retry, the notice:
 * src/machines/matrix-plans.ts), the dialog marking an assisted post published (its share link), the plan form (src/machines/plan-form.ts: a new plan or
 * an edit of one not started, preview, save, AI titles; opened by a "publish" link with its
 * videos) with what it picks from: the caller's `normal` accounts, its library videos (the
 * resource picker) and its finished creations (outputs of video tasks, digital-human videos).
 * After each change the area reloads what shows it, as events between its actors.
 */
import { createActor, fromPromise } from 'xstate';
import type { z } from 'zod';
import { imitateTitleBody } from '../../api/contract/ai-text';
import type { AccountPage } from '../../api/contract/matrix';
import {
  planBody,
  postMarkPublishedBody,
  type CreationMediaType,
  type PlanBody,
  type PlanMediaItem,
  type PlanPost,
  type PlanStatus,
  type ReleasePlan,
} from '../../api/contract/matrix-plans';
import type { Resource } from '../../api/contract/resources';
import type { CustomerDialogForm } from '../../machines/customers/customer-dialog';
import * as matrixApi from '../../api/matrix';
import * as plansApi from '../../api/matrix-plans';
import * as resourcesApi from '../../api/resources';
import { matrixPlansMachine, type PlanAction, type PostAction } from '../../machines/matrix-plans';
import {
  createPlanFormMachine,
  type CheckedPlan,
  type PlanDraft,
  type PlanMediaPick,
  type PlanMediaRef,
} from '../../machines/plan-form';
import { resourcePickerMachine } from '../../machines/resource-picker';
import { defineArea, lazyActors } from './areas';
import { dialogActor, listActor, loadActor, toast, whenChanged } from './factories';
import { checkBody, type TextValues } from './small-forms';
import { wirePicker, RESOURCE_PAGE_SIZE, resourceQuery, type ResourceFilters } from './resources';

export interface MatrixPlansEndpoints {
  getPlans: typeof plansApi.getPlans;
  previewPlan: typeof plansApi.previewPlan;
  addPlan: typeof plansApi.addPlan;
  editPlan: typeof plansApi.editPlan;
  getPlanMedia: typeof plansApi.getPlanMedia;
  pausePlan: typeof plansApi.pausePlan;
  resumePlan: typeof plansApi.resumePlan;
  cancelPlan: typeof plansApi.cancelPlan;
  getPosts: typeof plansApi.getPosts;
  publishNow: typeof plansApi.publishPostNow;
  retryPost: typeof plansApi.retryPost;
  markPublished: typeof plansApi.markPostPublished;
  imitateTitle: typeof plansApi.imitateTitle;
  getAccounts: typeof matrixApi.getAccounts;
  getResources: typeof resourcesApi.getResources;
  /** Now (epoch ms): the form's default dates. */
  now: () => number;
}

export interface PlanFilters {
  status: PlanStatus | '';
}

export const PLAN_PAGE_SIZE = 20;
export const POST_PAGE_SIZE = 20;
export const CREATIONS_PAGE_SIZE = 10;
/** The accounts the form offers (the list call's largest page). */
export const PLAN_ACCOUNTS_SHOWN = 100;
/** The time zone of a new plan, and the others the form offers. */
export const DEFAULT_TIMEZONE = 'Asia/Shanghai';
export const TIMEZONES = [
  'Asia/Shanghai',
  'Asia/Hong_Kong',
  'Asia/Tokyo',
  'Asia/Singapore',
  'Europe/London',
  'Europe/Berlin',
  'America/New_York',
  'America/Los_Angeles',
  'UTC',
] as const;
/** Each post's titles at most (the contract's). */
const MAX_TITLES = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The day (`YYYY-MM-DD`) of an instant in a time zone. */
export function dayIn(timeZone: string, ms: number): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ms);
}

/** A fresh plan: from tomorrow for a week, at 09:00 and 18:00, two posts a day, in Shanghai. */
export function freshPlan(now: number): PlanDraft {
  return {
    name: '',
    accountIds: [],
    media: [],
    titles: [],
    topics: [],
    location: '',
    startDate: dayIn(DEFAULT_TIMEZONE, now + DAY_MS),
    endDate: dayIn(DEFAULT_TIMEZONE, now + 7 * DAY_MS),
    slots: ['09:00', '18:00'],
    dailyMax: '2',
    timezone: DEFAULT_TIMEZONE,
  };
}

/** A plan as the form's draft (an edit starts from it). */
export function draftOfPlan(plan: ReleasePlan): PlanDraft {
  return {
    name: plan.name,
    accountIds: plan.account_ids,
    media: plan.media.map((m) => ({ type: m.type, id: m.id, name: m.name })),
    titles: plan.titles,
    topics: plan.topics,
    location: plan.location ?? '',
    startDate: plan.start_date,
    endDate: plan.end_date,
    slots: plan.slots,
    dailyMax: String(plan.daily_max),
    timezone: plan.timezone,
  };
}

/**
 * Whether a plan looks editable (docs/domain.md §20: until its first post starts): not started, or
 * paused with every post still waiting. A convenience only: the server decides (`plan_edit`).
 */
export function planEditable(plan: ReleasePlan): boolean {
  if (plan.status !== 'not_started' && plan.status !== 'paused') return false;
  return Object.entries(plan.counts).every(([status, n]) => status === 'waiting' || n === 0);
}

/** The creations a "publish" link names, in its order, as far as the caller may publish them. */
async function resolveMedia(
  e: MatrixPlansEndpoints,
  refs: readonly PlanMediaRef[],
): Promise<PlanMediaPick[]> {
  const types = [...new Set(refs.map((r) => r.type))];
  const found = new Map<string, PlanMediaPick>();
  for (const type of types) {
    const ids = refs.filter((r) => r.type === type).map((r) => r.id);
    const page = await e.getPlanMedia(
      { type, ids: ids.join(','), page: 1, limit: Math.min(ids.length, 100) },
      { quiet: true },
    );
    for (const m of page.list)
      found.set(`${m.type}:${m.id}`, { type: m.type, id: m.id, name: m.name });
  }
  return refs.flatMap((r) => found.get(`${r.type}:${r.id}`) ?? []);
}

/** The body of a draft (the rules read it as typed). */
export function planBodyOf(d: PlanDraft): PlanBody {
  return {
    name: d.name,
    account_ids: d.accountIds,
    media: d.media.map((m) => ({ type: m.type, id: m.id })),
    titles: d.titles,
    topics: d.topics,
    ...(d.location.trim() ? { location: d.location.trim() } : {}),
    start_date: d.startDate,
    end_date: d.endDate,
    slots: d.slots,
    daily_max: d.dailyMax.trim() === '' ? Number.NaN : Number(d.dailyMax),
    timezone: d.timezone,
  };
}

/** Field of the form each body key is shown at. */
const FIELD_OF: Record<string, string> = {
  account_ids: 'accounts',
  start_date: 'dates',
  end_date: 'dates',
  daily_max: 'dailyMax',
};

function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '_form');
    out[FIELD_OF[key] ?? key] ??= issue.message;
  }
  return out;
}

/** The contract's rules over a draft (and the end not before the start). */
export function checkPlanDraft(d: PlanDraft): CheckedPlan {
  const body = planBodyOf(d);
  const parsed = planBody.safeParse(body);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  if (!errors.dates && d.endDate < d.startDate) errors.dates = 'matrixPlans.endBeforeStart';
  return { body: Object.keys(errors).length === 0 ? body : null, errors };
}

/**
 * The mark-published dialog's draft (docs/architecture.md "Forms"): the share link, empty on each
 * opening, checked with the call's schema (the post's id and the link) before it is sent.
 */
const markPublishedFields: CustomerDialogForm<PlanPost, { share_url: string }, TextValues> = {
  start: () => ({ text: '' }),
  check: (form, post) => {
    const checked = checkBody<{ id: number; share_url: string }, TextValues>(
      postMarkPublishedBody,
      { id: post?.id ?? 0, share_url: form.text.trim() },
      'text',
    );
    return 'draft' in checked ? { draft: { share_url: checked.draft.share_url } } : checked;
  },
};

function createMatrixPlansActors(e: MatrixPlansEndpoints) {
  const planCalls: Record<PlanAction, (body: { id: number }) => Promise<ReleasePlan>> = {
    // The page shows the outcome itself (its notice): no second one from the HTTP layer.
    pause: (body) => e.pausePlan(body, { quiet: true }),
    resume: (body) => e.resumePlan(body, { quiet: true }),
    cancel: (body) => e.cancelPlan(body, { quiet: true }),
  };
  const postCalls: Record<PostAction, (body: { id: number }) => Promise<unknown>> = {
    publishNow: (body) => e.publishNow(body, { quiet: true }),
    retry: (body) => e.retryPost(body, { quiet: true }),
  };
  return lazyActors(
    {
      plans: () =>
        listActor<PlanFilters, ReleasePlan>(
          'matrixPlanList',
          ({ filters, page, limit }, signal) =>
            e.getPlans(
              { ...(filters.status ? { status: filters.status } : {}), page, limit },
              { signal },
            ),
          { status: '' },
          PLAN_PAGE_SIZE,
        ),
      posts: () =>
        listActor<{ planId: number | null }, PlanPost>(
          'matrixPostList',
          ({ filters, page, limit }, signal) =>
            filters.planId === null
              ? Promise.resolve({ list: [], total: 0 })
              : e.getPosts({ plan_id: filters.planId, page, limit }, { signal }),
          { planId: null },
          POST_PAGE_SIZE,
        ),
      page: () =>
        createActor(
          matrixPlansMachine.provide({
            actors: {
              planAction: fromPromise(({ input }) => planCalls[input.action]({ id: input.id })),
              postAction: fromPromise(({ input }) => postCalls[input.action]({ id: input.id })),
            },
          }),
        ),
      // An assisted post published by hand: its share link (the dialog shows a refusal itself).
      markPublished: () =>
        dialogActor<PlanPost, { share_url: string }, unknown, TextValues>(
          'matrixPostMarkPublished',
          (target, payload) =>
            e.markPublished({ id: target!.id, share_url: payload.share_url }, { quiet: true }),
          markPublishedFields,
        ),
      form: () =>
        createActor(
          createPlanFormMachine({
            fresh: () => freshPlan(e.now()),
            check: checkPlanDraft,
            checkImitate: (body) => {
              const parsed = imitateTitleBody.safeParse(body);
              return parsed.success
                ? null
                : (parsed.error.issues[0]?.message ?? 'validation.invalid');
            },
            maxTitles: MAX_TITLES,
          }).provide({
            actors: {
              // The form shows refusals itself (above its buttons).
              preview: fromPromise(({ input }) => e.previewPlan(input.body, { quiet: true })),
              save: fromPromise(async ({ input }) => {
                if (input.planId === null) return e.addPlan(input.body, { quiet: true });
                const plan = await e.editPlan({ ...input.body, id: input.planId }, { quiet: true });
                return { id: plan.id, posts: plan.total };
              }),
              resolveMedia: fromPromise(({ input }) => resolveMedia(e, input.refs)),
              imitate: fromPromise(({ input }) => e.imitateTitle(input, { quiet: true })),
            },
          }),
        ),
      accounts: () =>
        loadActor<AccountPage>('matrixPlanAccounts', (signal) =>
          e.getAccounts({ status: 'normal', page: 1, limit: PLAN_ACCOUNTS_SHOWN }, { signal }),
        ),
      // The finished creations the form offers besides library videos.
      creations: () =>
        listActor<{ type: CreationMediaType }, PlanMediaItem>(
          'matrixPlanCreations',
          ({ filters, page, limit }, signal) =>
            e.getPlanMedia({ type: filters.type, page, limit }, { signal }),
          { type: 'video_output' },
          CREATIONS_PAGE_SIZE,
        ),
      picker: () => createActor(resourcePickerMachine),
      pickerResources: () =>
        listActor<ResourceFilters, Resource>(
          'matrixPlanPickerResources',
          ({ filters, page, limit }, signal) =>
            e.getResources({ ...resourceQuery(filters), page, limit }, { signal }),
          { type: 'video', keyword: '', group: 'all' },
          RESOURCE_PAGE_SIZE,
        ),
    },
    (all, started) => {
      const reloadPlans = () => started('plans')?.send({ type: 'RELOAD' });
      const reloadPosts = () => started('posts')?.send({ type: 'RELOAD' });
      return {
        form: (form) => [
          whenChanged(
            form,
            (s) => s.context.completed,
            () => {
              const result = form.getSnapshot().context.result;
              toast('success', result?.edited ? 'matrixPlans.edited' : 'matrixPlans.saved', {
                posts: result?.posts ?? 0,
              });
              reloadPlans();
              if (result?.edited) reloadPosts();
            },
          ),
          // An edit opens over the plan's detail: the detail closes (its posts are replaced).
          whenChanged(
            form,
            (s) => (s.matches('open') ? (s.context.planId ?? 0) : 0),
            () => started('page')?.send({ type: 'CLOSE_DETAIL' }),
          ),
          // The creations dialog opens on the mixed-cut outputs, from the first page.
          whenChanged(
            form,
            (s) => s.hasTag('creations'),
            () => all.creations.send({ type: 'SET_FILTERS', filters: { type: 'video_output' } }),
          ),
        ],
        page: (page) => [
          // A plan or post action done or refused: the counts, the statuses may have changed.
          whenChanged(
            page,
            (s) => s.context.settled,
            () => {
              reloadPlans();
              reloadPosts();
            },
          ),
          whenChanged(
            page,
            (s) => s.context.detail?.id ?? 0,
            () =>
              all.posts.send({
                type: 'SET_FILTERS',
                filters: { planId: page.getSnapshot().context.detail?.id ?? null },
              }),
          ),
        ],
        markPublished: (dialog) => [
          whenChanged(
            dialog,
            (s) => s.context.completed,
            () => {
              started('page')?.send({
                type: 'SHOW',
                notice: { tone: 'success', text: 'matrixPlans.markedPublished' },
              });
              reloadPlans();
              reloadPosts();
            },
          ),
        ],
        picker: (picker) =>
          wirePicker(picker, all.pickerResources, (slot, picked) => {
            if (slot.form !== 'plan') return;
            started('form')?.send({
              type: 'EDIT',
              patch: {
                // The library's videos as picked; the creations chosen elsewhere stay.
                media: [
                  ...(started('form')
                    ?.getSnapshot()
                    .context.draft.media.filter((m) => m.type !== 'resource') ?? []),
                  ...picked.map((p) => ({ type: 'resource' as const, id: p.id, name: p.name })),
                ],
              },
            });
          }),
      };
    },
  );
}

export type MatrixPlansActors = ReturnType<typeof createMatrixPlansActors>;

export const matrixPlansArea = defineArea<MatrixPlansEndpoints, MatrixPlansActors>({
  key: 'matrixPlans',
  live: () => ({
    getPlans: plansApi.getPlans,
    previewPlan: plansApi.previewPlan,
    addPlan: plansApi.addPlan,
    editPlan: plansApi.editPlan,
    getPlanMedia: plansApi.getPlanMedia,
    pausePlan: plansApi.pausePlan,
    resumePlan: plansApi.resumePlan,
    cancelPlan: plansApi.cancelPlan,
    getPosts: plansApi.getPosts,
    publishNow: plansApi.publishPostNow,
    retryPost: plansApi.retryPost,
    markPublished: plansApi.markPostPublished,
    imitateTitle: plansApi.imitateTitle,
    getAccounts: matrixApi.getAccounts,
    getResources: resourcesApi.getResources,
    now: () => Date.now(),
  }),
  create: (endpoints) => createMatrixPlansActors(endpoints),
});
