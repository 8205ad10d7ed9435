import type { PlanInput, ReleasePlan } from '../../../src/api/contract/matrix-plans';
import type { AppContext, AuthContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { checkPlan, insertPosts, planDetail, type PlanRow } from './plans';

/**
 * Editing a release plan (docs/domain.md §20): allowed until its first post starts publishing —
 * the plan never started (`started_at` null: not started, or paused before it started) and every
 * post still waiting. The body is checked like plan_add's; the plan's fields and all its posts are
 * replaced in one transaction.
 *
 * The race with the dispatcher (publish.ts `dispatchDuePosts`: due posts waiting → publishing, and
 * their plan running, in one transaction) is settled inside that transaction: only waiting posts
 * are deleted, so a post taken meanwhile stays and the edit refuses (`matrix.planEditRaced`) and
 * rolls back; a dispatcher that comes after the delete finds those posts gone and takes nothing;
 * then the plan's row is replaced by a conditional update (still never started, not started or
 * paused), else the edit refuses (`matrix.planNotEditable`).
 */

const EDITABLE_STATUSES = ['not_started', 'paused'];

/** The fields an edit may change, as the audit row shows them. */
function auditedFields(row: Omit<PlanRow, 'id' | 'owner_id' | 'status' | 'created_at'>) {
  return {
    name: row.name,
    timezone: row.timezone,
    start_date: row.start_date,
    end_date: row.end_date,
    slots: JSON.parse(row.slots) as unknown,
    daily_max: Number(row.daily_max),
    titles: JSON.parse(row.titles) as unknown,
    topics: JSON.parse(row.topics) as unknown,
    location: row.location,
    account_ids: JSON.parse(row.account_ids) as unknown,
    media: JSON.parse(row.media) as unknown,
    posts: Number(row.total),
  };
}

/** POST /matrix/plan_edit: the plan, its fields and posts replaced (see above). */
export async function editPlan(
  ctx: AppContext,
  auth: AuthContext,
  input: PlanInput & { id: number },
  audit: AuditTrail,
): Promise<ReleasePlan> {
  const { id, ...body } = input;
  const before = await ctx.db
    .selectFrom('matrix_plans')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', auth.user.id)
    .executeTakeFirst();
  if (!before) throw refuse('matrix.planNotFound');
  // From the plan's counts (kept by triggers): no scan of a large plan's posts.
  const moved = await ctx.db
    .selectFrom('matrix_plan_counts')
    .select('status')
    .where('plan_id', '=', id)
    .where('status', '<>', 'waiting')
    .where('n', '>', 0)
    .limit(1)
    .executeTakeFirst();
  if (before.started_at !== null || !EDITABLE_STATUSES.includes(before.status) || moved) {
    throw refuse('matrix.planNotEditable');
  }
  const plan = await checkPlan(ctx, auth, body);
  const now = ctx.now();
  const values = {
    name: body.name,
    timezone: body.timezone,
    start_date: body.start_date,
    end_date: body.end_date,
    slots: JSON.stringify(plan.slots),
    daily_max: body.daily_max,
    titles: JSON.stringify(body.titles),
    topics: JSON.stringify(body.topics),
    location: body.location ?? null,
    account_ids: JSON.stringify(plan.accounts),
    media: JSON.stringify(plan.media.map((m) => ({ type: m.type, id: m.id, name: m.name }))),
    total: plan.size,
  };
  await runInTransaction(
    ctx.db,
    async (trx) => {
      // Posts first, then the plan: the order the dispatcher takes them in (publish.ts
      // `dispatchDuePosts`, one transaction), so the two never wait on each other in a cycle.
      await trx
        .deleteFrom('matrix_posts')
        .where('plan_id', '=', id)
        .where('status', '=', 'waiting')
        .execute();
      // A post left is one no longer waiting: taken by a dispatcher (or marked published by
      // hand) since the checks above, its transaction committed before or during this delete.
      const left = await trx
        .selectFrom('matrix_posts')
        .select('id')
        .where('plan_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      if (left) throw refuse('matrix.planEditRaced');
      // The guard: the plan is still one that never started (not paused-and-resumed, cancelled).
      const taken = await trx
        .updateTable('matrix_plans')
        .set({ ...values, updated_at: now })
        .where('id', '=', id)
        .where('owner_id', '=', auth.user.id)
        .where('started_at', 'is', null)
        .where('status', 'in', EDITABLE_STATUSES)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) throw refuse('matrix.planNotEditable');
      await insertPosts(trx, id, auth.user.id, plan, now);
      audit.change(auditedFields(before), auditedFields({ ...before, ...values }));
    },
    { audit },
  );
  return planDetail(ctx, auth, id);
}
