import { formatUnits } from '../../../src/api/contract/money';
import type { Locale } from '../../../src/api/contract/messages';
import type {
  OutputStatus,
  TaskStatus,
  VideoOutput,
  VideoRatio,
  VideoResolution,
  VideoTask,
  VideoTaskCancelReply,
  VideoTaskDeleteReply,
  VideoTaskDetail,
  VideoTaskEstimate,
  VideoTaskKind,
  VideoTaskListParams,
  VideoTaskPage,
  VideoTaskParams,
  VideoTaskRetryReply,
} from '../../../src/api/contract/video-tasks';
import { FINISHED_TASK_STATUSES } from '../../../src/api/contract/video-tasks';
import type { AppContext, AuthContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { failureDetail } from '../../platform/jobs/failure-detail';
import { isMessageId, t } from '../../platform/i18n';
import { runMoney, type Idempotency } from '../ledger';
import { deleteUnlessInLibrary, signedUrlsOf } from '../resources';
import { priceFor } from '../system';
import { freeze, refreshTask, refundOutputs, RELATED } from './billing';
import { insertTask } from './insert-task';
import { loadResources, planTask } from './check-body';
import { downloadAllUrl } from './download-all';
import { queueSpots, type QueueSpot } from './queue-estimate';
import type { Combination } from './plan';
import { enqueueOutputs } from './queue';
import { freezeNarration, freezeNarrationAgain, narrationSeconds, speechKeysOf } from './narration';
import { digitalManUnitCost as unitCost } from '../digital-human';
import { balanceOf } from '../ledger';
import { findTask, listTasks, outputsOf, type OutputRow, type TaskRow } from './repo';

/** The platform setting of the price of one output (money, docs/domain.md §9). */
export const PRICE_SETTING = 'video_output_cost';
const DEFAULT_PRICE = 10;

/**
 * The price of one output in cents for `payer`: its partner's override, else the platform's
 * setting ("0.10"), 0 when it is "0" (docs/domain.md §12 "Settings and prices").
 */
export async function outputPrice(
  ctx: Pick<AppContext, 'db'>,
  payer: { service_id: number },
): Promise<number> {
  const raw = (await priceFor(ctx.db, payer, PRICE_SETTING)).trim();
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(raw);
  if (!match) return DEFAULT_PRICE;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Clip calls are refused for a caller whose clip menus are off. */
export function checkKind(auth: AuthContext, kind: VideoTaskKind): void {
  if (kind === 'clip' && Number(auth.user.show_clip_menu) === 0) throw refuse('videoTask.clipOff');
}

/** POST /video_task/estimate: every check of `add` but the balance; charges nothing. */
export async function estimateTask(
  ctx: AppContext,
  auth: AuthContext,
  params: VideoTaskParams,
): Promise<VideoTaskEstimate> {
  checkKind(auth, params.kind);
  const plan = await planTask(ctx.db, auth.user.id, params);
  const unit = await outputPrice(ctx, auth.user);
  let narration: VideoTaskEstimate['narration'];
  if (params.narration) {
    const seconds = narrationSeconds(params.narration);
    narration = {
      seconds,
      cost: seconds * (await unitCost(ctx, auth.user)),
      balance: await balanceOf(ctx.db, auth.user.id, 'digital_man'),
    };
  }
  return {
    ...(narration ? { narration } : {}),
    combinations: plan.combinations,
    outputs: plan.count,
    unit_cost: formatUnits('money', unit),
    cost: formatUnits('money', unit * plan.count),
    balance: formatUnits('money', Number(auth.user.money)),
    duration_min: plan.durationMin,
    duration_max: plan.durationMax,
  };
}

/**
 * POST /video_task/add: in one transaction the resources are checked again (live, the caller's),
 * the task and its outputs inserted (billing held) and the resources referenced (insert-task.ts),
 * and the price of every output frozen; then each output is enqueued.
 * An enqueue that fails loses nothing: the sweep enqueues queued outputs without a live job.
 */
export async function addTask(
  ctx: AppContext,
  auth: AuthContext,
  params: VideoTaskParams,
  idempotency: Idempotency | undefined,
  audit: AuditTrail,
): Promise<{ id: number }> {
  checkKind(auth, params.kind);
  const ownerId = auth.user.id;
  await planTask(ctx.db, ownerId, params); // refuses early, before any lock
  const unit = await outputPrice(ctx, auth.user);
  const narrationPrice = params.narration ? await unitCost(ctx, auth.user) : 0;
  const { taskId, outputIds } = await runMoney(
    ctx,
    async (trx) => {
      const plan = await planTask(trx, ownerId, params);
      const { id, outputIds } = await insertTask(trx, {
        ownerId,
        params,
        plan,
        unit,
        narrationPrice,
        now: ctx.now(),
      });
      await freeze(ctx, trx, { id, ownerId, name: params.name }, outputIds, unit * plan.count);
      if (params.narration) {
        const seconds = narrationSeconds(params.narration);
        await freezeNarration(
          ctx,
          trx,
          { id, ownerId, name: params.name },
          seconds * narrationPrice,
        );
      }
      audit.target(id);
      audit.change(null, {
        kind: params.kind,
        name: params.name,
        outputs: plan.count,
        frozen: formatUnits('money', unit * plan.count),
      });
      return { taskId: id, outputIds };
    },
    idempotency,
    audit,
  );
  // A replayed request (same Idempotency-Key) enqueues only what has no job yet.
  await enqueueOutputs(ctx, outputIds, { onlyNew: true });
  return { id: taskId };
}

/** GET /video_task/list */
export async function taskList(
  ctx: AppContext,
  auth: AuthContext,
  query: VideoTaskListParams,
): Promise<VideoTaskPage> {
  checkKind(auth, query.kind);
  const { rows, total } = await listTasks(ctx.db, auth.user.id, query);
  const outputs = await outputsOf(
    ctx.db,
    rows.map((r) => Number(r.id)),
  );
  const spots = await queueSpots(ctx, queuedIds(outputs));
  const list = await Promise.all(
    rows.map((row) =>
      toTask(
        ctx,
        row,
        outputs.filter((o) => Number(o.task_id) === Number(row.id)),
        spots,
      ),
    ),
  );
  return { list, total };
}

async function ownTask(ctx: AppContext, auth: AuthContext, id: number): Promise<TaskRow> {
  const task = await findTask(ctx.db, auth.user.id, id);
  if (!task) throw refuse('videoTask.notFound');
  checkKind(auth, task.kind as VideoTaskKind);
  return task;
}

/** GET /video_task/detail */
export async function taskDetail(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  locale: Locale,
): Promise<VideoTaskDetail> {
  const task = await ownTask(ctx, auth, id);
  const outputs = await outputsOf(ctx.db, [id]);
  const ids = outputs.flatMap((o) => (JSON.parse(o.combination) as Combination).shots);
  const names = await loadResources(ctx.db, auth.user.id, ids, true);
  const urls = signedUrlsOf(ctx.storage, ctx.now);
  const spots = await queueSpots(ctx, queuedIds(outputs));
  const list = await Promise.all(
    outputs.map(async (o): Promise<VideoOutput> => {
      const combination = JSON.parse(o.combination) as Combination;
      const done = o.status === 'done' && o.storage_key !== null;
      const url = done ? await urls.url(o.storage_key!) : null;
      const failed = o.status === 'failed';
      return {
        id: Number(o.id),
        index: Number(o.idx),
        status: o.status as OutputStatus,
        progress: o.status === 'done' ? 100 : Number(o.progress),
        reason: failed ? reasonText(locale, o) : null,
        // Rows written before details were made readable may hold paths: scrubbed here too.
        reason_detail:
          failed && o.reason_detail
            ? failureDetail(o.reason_detail, { roots: [ctx.config.dataDir] })
            : null,
        duration:
          Math.round((o.duration_ms !== null ? Number(o.duration_ms) : Number(o.planned_ms)) / 10) /
          100,
        size: o.size === null ? null : Number(o.size),
        width: o.width === null ? null : Number(o.width),
        height: o.height === null ? null : Number(o.height),
        url,
        download_url: done ? await urls.url(o.storage_key!, `${task.name}-${o.idx}.mp4`) : null,
        poster: done && o.poster_key ? await urls.url(o.poster_key) : null,
        combination: combination.shots.map((resourceId, g) => ({
          group: g + 1,
          resource_id: resourceId,
          name: names.get(resourceId)?.name ?? '',
        })),
        attempts: Number(o.attempts),
        finished_at: o.finished_at === null ? null : Number(o.finished_at),
        queue_position: spots.get(Number(o.id))?.position ?? null,
        estimated_start: spots.get(Number(o.id))?.estimatedStart ?? null,
      };
    }),
  );
  return {
    ...(await toTask(ctx, task, outputs, spots)),
    params: JSON.parse(task.params) as Record<string, unknown>,
    outputs: list,
  };
}

function reasonText(locale: Locale, o: OutputRow): string {
  const id = o.reason_id ?? 'videoTask.reason.renderFailed';
  if (!isMessageId(id)) return id;
  const params = o.reason_params
    ? (JSON.parse(o.reason_params) as Record<string, string | number>)
    : {};
  return t(locale, id, params);
}

const queuedIds = (outputs: OutputRow[]) =>
  outputs.filter((o) => o.status === 'queued').map((o) => Number(o.id));

async function toTask(
  ctx: AppContext,
  row: TaskRow,
  outputs: OutputRow[],
  spots: Map<number, QueueSpot>,
): Promise<VideoTask> {
  const count = (s: OutputStatus) => outputs.filter((o) => o.status === s).length;
  const total = outputs.length;
  const finished = count('done') + count('failed') + count('cancelled');
  const rendering = outputs
    .filter((o) => o.status === 'rendering')
    .reduce((sum, o) => sum + Number(o.progress), 0);
  const cover = outputs.find((o) => o.status === 'done' && o.poster_key);
  // Outputs are in index order and queued in id order: its first queued one is the nearest.
  const first = queuedIds(outputs)
    .map((id) => spots.get(id))
    .find((spot) => spot !== undefined);
  const params = JSON.parse(row.params) as { ratio: VideoRatio; resolution: VideoResolution };
  return {
    id: Number(row.id),
    kind: row.kind as VideoTaskKind,
    name: row.name,
    status: row.status as TaskStatus,
    total,
    done: count('done'),
    failed: count('failed'),
    cancelled: count('cancelled'),
    progress: total === 0 ? 0 : Math.floor((finished * 100 + rendering) / total),
    cost: formatUnits('money', Number(row.frozen)),
    settled: formatUnits('money', Number(row.settled)),
    refunded: formatUnits('money', Number(row.refunded)),
    ratio: params.ratio,
    resolution: params.resolution,
    cover: cover ? await signedUrlsOf(ctx.storage, ctx.now).url(cover.poster_key!) : null,
    stalled: Number(row.stalled) === 1,
    created_at: Number(row.created_at),
    finished_at: row.finished_at === null ? null : Number(row.finished_at),
    download_all_url:
      count('done') > 0 ? downloadAllUrl(ctx, Number(row.id), Number(row.owner_id)) : null,
    queue_position: first?.position ?? null,
    estimated_start: first?.estimatedStart ?? null,
  };
}

/**
 * POST /video_task/retry: the failed outputs queued again, their price frozen again (the task's
 * unit price) in one transaction; refused with the amount needed when the balance is short.
 */
export async function retryTask(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  idempotency: Idempotency | undefined,
  audit: AuditTrail,
): Promise<VideoTaskRetryReply> {
  const task = await ownTask(ctx, auth, id);
  const unit = Number(task.unit_price);
  const outputIds = await runMoney(
    ctx,
    async (trx) => {
      const failed = await trx
        .selectFrom('video_outputs')
        .select('id')
        .where('task_id', '=', id)
        .where('status', '=', 'failed')
        .where('billing', '=', 'refunded')
        .execute();
      if (failed.length === 0) throw refuse('videoTask.nothingToRetry');
      const ids = failed.map((r) => Number(r.id));
      const now = ctx.now();
      const moved = await trx
        .updateTable('video_outputs')
        .set({
          status: 'queued',
          billing: 'held',
          price: unit,
          progress: 0,
          job_id: null,
          reason_id: null,
          reason_params: null,
          reason_detail: null,
          started_at: null,
          finished_at: null,
          updated_at: now,
        })
        .where('id', 'in', ids)
        .where('status', '=', 'failed')
        .where('billing', '=', 'refunded')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== ids.length) throw refuse('videoTask.nothingToRetry');
      await freeze(
        ctx,
        trx,
        { id, ownerId: auth.user.id, name: task.name },
        ids,
        unit * ids.length,
      );
      await freezeNarrationAgain(ctx, trx, { id, ownerId: auth.user.id, name: task.name });
      await refreshTask(trx, id, now);
      audit.change(null, { outputs: ids.length, frozen: formatUnits('money', unit * ids.length) });
      return ids;
    },
    idempotency,
    audit,
  );
  await enqueueOutputs(ctx, outputIds, { onlyNew: true });
  return { count: outputIds.length, cost: formatUnits('money', unit * outputIds.length) };
}

/** POST /video_task/cancel: queued outputs cancelled and refunded; rendering ones finish. */
export async function cancelTask(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  audit: AuditTrail,
): Promise<VideoTaskCancelReply> {
  await ownTask(ctx, auth, id);
  const queued = await ctx.db
    .selectFrom('video_outputs')
    .select(['id', 'job_id'])
    .where('task_id', '=', id)
    .where('status', '=', 'queued')
    .execute();
  if (queued.length === 0) throw refuse('videoTask.nothingToCancel');
  const result = await runMoney(
    ctx,
    async (trx) => {
      const refunded = await refundOutputs(
        ctx,
        trx,
        auth.user.id,
        queued.map((o) => Number(o.id)),
        { to: 'cancelled', from: ['queued'] },
      );
      audit.change(null, {
        outputs: refunded.count,
        refunded: formatUnits('money', refunded.amount),
      });
      return refunded;
    },
    undefined,
    audit,
  );
  // A concurrent cancel took them between the read and the refund: nothing left, as a later call.
  if (result.count === 0) throw refuse('videoTask.nothingToCancel');
  // The jobs of cancelled outputs would skip them anyway; cancelling spares the queue the work.
  await Promise.all(
    queued.map((o) => (o.job_id ? ctx.jobs.cancel(o.job_id).catch(() => false) : false)),
  );
  return { count: result.count, refunded: formatUnits('money', result.amount) };
}

/**
 * POST /video_task/delete: finished tasks only (refused while any is queued or rendering); each
 * is hidden (soft delete) and its resource references dropped in one transaction, then its
 * output files removed, but for those a work in the library still shows.
 */
export async function deleteTasks(
  ctx: AppContext,
  auth: AuthContext,
  ids: readonly number[],
  audit: AuditTrail,
): Promise<VideoTaskDeleteReply> {
  const unique = [...new Set(ids)];
  const keys = await runInTransaction(
    ctx.db,
    async (trx) => {
      const tasks = [];
      for (const id of unique) {
        const task = await findTask(trx, auth.user.id, id);
        if (!task) throw refuse('videoTask.notFound');
        checkKind(auth, task.kind as VideoTaskKind);
        if (!FINISHED_TASK_STATUSES.includes(task.status as TaskStatus)) {
          throw refuse('videoTask.notFinished', { name: task.name });
        }
        tasks.push(task);
      }
      const now = ctx.now();
      const hidden = await trx
        .updateTable('video_tasks')
        .set({ deleted_at: now, updated_at: now })
        .where('id', 'in', unique)
        .where('deleted_at', 'is', null)
        .where('status', 'in', FINISHED_TASK_STATUSES)
        .executeTakeFirst();
      // A retry between the check and here: the task runs again.
      if (Number(hidden.numUpdatedRows) !== unique.length) {
        throw refuse('videoTask.notFinished', { name: tasks[0].name });
      }
      await trx
        .deleteFrom('resource_refs')
        .where('task_kind', '=', RELATED)
        .where('task_id', 'in', unique)
        .execute();
      audit.change({ deleted_at: null }, { deleted_at: now });
      const outputs = await outputsOf(trx, unique);
      return [
        ...outputs.flatMap((o) => [o.storage_key, o.poster_key].filter((k) => k !== null)),
        ...(await speechKeysOf(trx, unique)),
      ];
    },
    { audit },
  );
  // A work in the library keeps its file (docs/domain.md §8 "Works").
  await deleteUnlessInLibrary(ctx.storage, ctx.db, keys);
  return { count: unique.length };
}
