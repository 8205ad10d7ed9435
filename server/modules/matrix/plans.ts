import type { Transaction } from 'kysely';
import {
  PLAN_DAYS_MAX,
  PLAN_POSTS_MAX,
  type PlanInput,
  type PlanPreview,
  type PlanStatus,
  type ReleasePlan,
} from '../../../src/api/contract/matrix-plans';
import type { AppContext, AuthContext } from '../../context';
import type { Database } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { findPlanMedia, type PlanMedia } from './plan-media';
import { datesBetween, dateIn, isDate, isTimeZone, schedule, scheduleSize } from './schedule';
import { shownStatus } from './tokens';

/**
 * Release plans (docs/domain.md §20): checked, previewed and saved with all their posts in one
 * transaction; paused, resumed (past-due posts become missed, not a burst) and cancelled.
 */

export interface CheckedPlan {
  input: PlanInput;
  slots: string[];
  dates: string[];
  accounts: number[];
  media: PlanMedia[];
  size: number;
}

/** Checks a plan's body against the caller's accounts and media and the calendar. */
export async function checkPlan(
  ctx: AppContext,
  auth: AuthContext,
  input: PlanInput,
): Promise<CheckedPlan> {
  if (!isTimeZone(input.timezone)) throw refuse('validation.planTimezone');
  if (!isDate(input.start_date) || !isDate(input.end_date)) throw refuse('validation.planDate');
  const now = ctx.now();
  const today = dateIn(now, input.timezone);
  if (input.start_date < today || input.end_date < input.start_date)
    throw refuse('matrix.planDates');
  const dates = datesBetween(input.start_date, input.end_date);
  if (dates.length > PLAN_DAYS_MAX) throw refuse('matrix.planDates');
  const slots = [...new Set(input.slots)].sort();
  const accountIds = [...new Set(input.account_ids)];
  const rows = await ctx.db
    .selectFrom('matrix_accounts')
    .select(['id', 'nickname', 'status', 'refresh_expires_at'])
    .where('owner_id', '=', auth.user.id)
    .where('id', 'in', accountIds)
    .where('deleted_at', 'is', null)
    .execute();
  if (rows.length !== accountIds.length) throw refuse('matrix.planAccountMissing');
  for (const row of rows) {
    const status = shownStatus(row, now);
    if (status !== 'normal')
      throw refuse('matrix.planAccountUnusable', { name: row.nickname, status });
  }
  const refs = [...new Map(input.media.map((m) => [`${m.type}:${m.id}`, m])).values()];
  const found = await findPlanMedia(ctx.db, auth.user.id, refs);
  const media = refs.map((m) => found.get(`${m.type}:${m.id}`));
  if (media.some((m) => m === undefined)) throw refuse('matrix.planMediaUnusable');
  const size = scheduleSize({
    accounts: accountIds.length,
    media: media.length,
    titles: input.titles.length,
    dates,
    slots,
    dailyMax: input.daily_max,
    timezone: input.timezone,
    notBefore: now,
  });
  if (size > PLAN_POSTS_MAX)
    throw refuse('matrix.planTooLarge', { count: size, max: PLAN_POSTS_MAX });
  if (size === 0) throw refuse('matrix.planNoPosts');
  return { input, slots, dates, accounts: accountIds, media: media as PlanMedia[], size };
}

function scheduleOf(plan: CheckedPlan, now: number) {
  return schedule({
    accounts: plan.accounts.length,
    media: plan.media.length,
    titles: plan.input.titles.length,
    dates: plan.dates,
    slots: plan.slots,
    dailyMax: plan.input.daily_max,
    timezone: plan.input.timezone,
    notBefore: now,
  });
}

const mediaRef = (m: PlanMedia) => ({ type: m.type, id: m.id, name: m.name });

/** POST /matrix/plan_preview: the schedule the plan would make; nothing is saved. */
export async function previewPlan(
  ctx: AppContext,
  auth: AuthContext,
  input: PlanInput,
): Promise<PlanPreview> {
  const plan = await checkPlan(ctx, auth, input);
  const perMedia = plan.media.map(() => 0);
  const first: PlanPreview['first'] = [];
  let startsAt: number | null = null;
  let endsAt: number | null = null;
  for (const post of scheduleOf(plan, ctx.now())) {
    perMedia[post.media] += 1;
    startsAt ??= post.at;
    endsAt = Math.max(endsAt ?? post.at, post.at);
    if (first.length < 200) {
      first.push({
        account_id: plan.accounts[post.account],
        media: mediaRef(plan.media[post.media]),
        title: input.titles[post.title],
        scheduled_at: post.at,
      });
    }
  }
  return {
    total: plan.size,
    per_account_day: Math.min(input.daily_max, plan.slots.length),
    per_media: perMedia,
    first,
    starts_at: startsAt,
    ends_at: endsAt,
  };
}

/** Rows per insert: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

/** POST /matrix/plan_add: the plan and every post, in one transaction. */
export async function addPlan(
  ctx: AppContext,
  auth: AuthContext,
  input: PlanInput,
  audit: AuditTrail,
): Promise<{ id: number; posts: number }> {
  const plan = await checkPlan(ctx, auth, input);
  const now = ctx.now();
  audit.change(null, { name: input.name, accounts: plan.accounts.length, posts: plan.size });
  return runInTransaction(
    ctx.db,
    async (trx) => {
      const row = await trx
        .insertInto('matrix_plans')
        .values({
          owner_id: auth.user.id,
          name: input.name,
          status: 'not_started',
          timezone: input.timezone,
          start_date: input.start_date,
          end_date: input.end_date,
          slots: JSON.stringify(plan.slots),
          daily_max: input.daily_max,
          titles: JSON.stringify(input.titles),
          topics: JSON.stringify(input.topics),
          location: input.location ?? null,
          account_ids: JSON.stringify(plan.accounts),
          media: JSON.stringify(plan.media.map(mediaRef)),
          total: plan.size,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const planId = Number(row.id);
      await insertPosts(trx, planId, auth.user.id, plan, now);
      return { id: planId, posts: plan.size };
    },
    { audit },
  );
}

/** Writes a plan's posts, numbered in time order (`seq`: a page of them is a range of it). */
export async function insertPosts(
  trx: Transaction<Database>,
  planId: number,
  ownerId: number,
  plan: CheckedPlan,
  now: number,
): Promise<void> {
  // The schedule staggers a slot's posts by a minute per round of media: a long slot can run
  // past the next one, so its order is made a time order here (a stable sort).
  const posts = [...scheduleOf(plan, now)].sort((a, b) => a.at - b.at);
  for (let start = 0; start < posts.length; start += CHUNK) {
    await trx
      .insertInto('matrix_posts')
      .values(
        posts.slice(start, start + CHUNK).map((post, i) => {
          const media = plan.media[post.media];
          return {
            plan_id: planId,
            owner_id: ownerId,
            account_id: plan.accounts[post.account],
            media_type: media.type,
            media_id: media.id,
            title: plan.input.titles[post.title],
            scheduled_at: post.at,
            status: 'waiting',
            updated_at: now,
            seq: start + i + 1,
          };
        }),
      )
      .execute();
  }
}

export interface PlanRow {
  id: number;
  owner_id: number;
  name: string;
  status: string;
  timezone: string;
  start_date: string;
  end_date: string;
  slots: string;
  daily_max: number;
  titles: string;
  topics: string;
  location: string | null;
  account_ids: string;
  media: string;
  total: number;
  created_at: number;
}

/** A plan as its owner sees it, with its posts counted per status. */
export function toPlan(row: PlanRow, counts: Record<string, number>): ReleasePlan {
  return {
    id: Number(row.id),
    name: row.name,
    status: row.status as PlanStatus,
    timezone: row.timezone,
    start_date: row.start_date,
    end_date: row.end_date,
    slots: JSON.parse(row.slots) as string[],
    daily_max: Number(row.daily_max),
    titles: JSON.parse(row.titles) as string[],
    topics: JSON.parse(row.topics) as string[],
    location: row.location,
    account_ids: JSON.parse(row.account_ids) as number[],
    media: JSON.parse(row.media) as ReleasePlan['media'],
    counts,
    total: Number(row.total),
    created_at: Number(row.created_at),
  };
}

/** Posts per status of each plan, from the counts its posts' triggers keep (migration 0018). */
async function countsOf(ctx: AppContext, planIds: number[]) {
  const out = new Map<number, Record<string, number>>(planIds.map((id) => [id, {}]));
  if (planIds.length === 0) return out;
  const rows = await ctx.db
    .selectFrom('matrix_plan_counts')
    .select(['plan_id', 'status', 'n'])
    .where('plan_id', 'in', planIds)
    .where('n', '>', 0)
    .execute();
  for (const r of rows) out.get(Number(r.plan_id))![r.status] = Number(r.n);
  return out;
}

const findPlan = (ctx: AppContext, ownerId: number, id: number) =>
  ctx.db
    .selectFrom('matrix_plans')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();

/** GET /matrix/plan_list */
export async function planList(
  ctx: AppContext,
  auth: AuthContext,
  query: { status?: PlanStatus; page: number; limit: number },
) {
  let q = ctx.db.selectFrom('matrix_plans').where('owner_id', '=', auth.user.id);
  if (query.status) q = q.where('status', '=', query.status);
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const counts = await countsOf(
    ctx,
    rows.map((r) => Number(r.id)),
  );
  return { list: rows.map((r) => toPlan(r, counts.get(Number(r.id))!)), total: Number(count.n) };
}

/** GET /matrix/plan_detail */
export async function planDetail(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await findPlan(ctx, auth.user.id, id);
  if (!row) throw refuse('matrix.planNotFound');
  return toPlan(row, (await countsOf(ctx, [id])).get(id)!);
}

const PAUSABLE = ['not_started', 'running'];

/**
 * POST /matrix/plan_pause | plan_resume | plan_cancel. Pausing keeps the waiting posts waiting
 * (the dispatcher skips paused plans); resuming turns those already due into `missed` (no burst of
 * late posts); cancelling cancels every waiting post. Posts already publishing finish.
 */
export async function changePlan(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  action: 'pause' | 'resume' | 'cancel',
  audit: AuditTrail,
): Promise<ReleasePlan> {
  const row = await findPlan(ctx, auth.user.id, id);
  if (!row) throw refuse('matrix.planNotFound');
  const from =
    action === 'pause' ? PAUSABLE : action === 'resume' ? ['paused'] : [...PAUSABLE, 'paused'];
  const now = ctx.now();
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const current = await trx
        .selectFrom('matrix_plans')
        .select(['status', 'started_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      if (!from.includes(current.status)) {
        throw refuse('matrix.planStateChanged', { status: current.status });
      }
      const status =
        action === 'pause'
          ? 'paused'
          : action === 'cancel'
            ? 'cancelled'
            : current.started_at === null
              ? 'not_started'
              : 'running';
      audit.change({ status: current.status }, { status });
      await trx
        .updateTable('matrix_plans')
        .set({ status, updated_at: now })
        .where('id', '=', id)
        .execute();
      if (action === 'cancel') {
        await trx
          .updateTable('matrix_posts')
          .set({ status: 'cancelled', updated_at: now })
          .where('plan_id', '=', id)
          .where('status', '=', 'waiting')
          .execute();
      }
      if (action === 'resume') {
        await trx
          .updateTable('matrix_posts')
          .set({ status: 'missed', updated_at: now })
          .where('plan_id', '=', id)
          .where('status', '=', 'waiting')
          .where('scheduled_at', '<=', now)
          .execute();
      }
      await finishPlanIfDone(trx, id, now);
    },
    { audit },
  );
  return planDetail(ctx, auth, id);
}

const OPEN_POST_STATUSES = ['waiting', 'publishing', 'under_review', 'unconfirmed'];

/** A running plan none of whose posts can still change is done. */
export async function finishPlanIfDone(
  db: Transaction<Database> | AppContext['db'],
  planId: number,
  now: number,
): Promise<void> {
  const open = await db
    .selectFrom('matrix_plan_counts')
    .select('n')
    .where('plan_id', '=', planId)
    .where('status', 'in', OPEN_POST_STATUSES)
    .where('n', '>', 0)
    .limit(1)
    .executeTakeFirst();
  if (open) return;
  await db
    .updateTable('matrix_plans')
    .set({ status: 'done', updated_at: now })
    .where('id', '=', planId)
    .where('status', 'in', ['not_started', 'running'])
    .execute();
}
