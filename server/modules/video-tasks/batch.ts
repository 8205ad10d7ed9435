import type { z } from 'zod';
import { formatUnits } from '../../../src/api/contract/money';
import type { Locale } from '../../../src/api/contract/messages';
import {
  BATCH_COLUMNS,
  BATCH_LIMITS,
  type BatchColumn,
  type BatchError,
  type VideoTaskBatchAddReply,
  type VideoTaskBatchEstimate,
} from '../../../src/api/contract/video-task-batch';
import { mixedTaskBody, type VideoTaskParams } from '../../../src/api/contract/video-tasks';
import type { AppContext, AuthContext } from '../../context';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { AppError, refuse } from '../../platform/http/errors';
import { isMessageId, t } from '../../platform/i18n';
import { balanceOf, lockUsers, openHold, runMoney, type Idempotency, type Trx } from '../ledger';
import { BATCH_RELATED, RELATED } from './billing';
import { planTask, type TaskPlan } from './check-body';
import { readCsv } from './csv';
import { enqueueOutputs } from './queue';
import { outputPrice } from './service';

/**
 * Mixed-cut tasks in a batch from a CSV file (docs/domain.md §9 "Presets, batches and
 * previews"). The whole file is checked before anything is written — the file's shape, then each
 * row as the task it makes (the contract's rules, then every check `add` runs) — and every error
 * is named by row and column. A valid batch is added in one transaction: one ledger hold of the
 * whole price (related row `video_task_batch`), then a task per row whose outputs carry that
 * hold's id; the hold is closed when the batch's last task finishes (billing.ts).
 */

interface BatchInput {
  name: string;
  base: VideoTaskParams;
  csv: string;
}

interface CheckedRow {
  row: number;
  params: VideoTaskParams & { kind: 'mixed' };
  plan: TaskPlan;
}

/** The column a contract path or a refusal belongs to. */
function columnOfPath(path: readonly PropertyKey[]): BatchColumn | '' {
  const head = String(path[0] ?? '');
  if (head === 'name') return 'name';
  if (head === 'titles') return 'title';
  if (head === 'subtitles') return 'subtitle';
  if (head === 'music_ids') return 'music';
  if (head === 'count') return 'count';
  return '';
}

function columnOfRefusal(id: string, params: Record<string, unknown>, music: number | null) {
  if (id === 'videoTask.tooManyOutputs') return 'count';
  if (id === 'videoTask.notMusic') return 'music';
  if (id === 'videoTask.resourceMissing' && music !== null && params.id === music) return 'music';
  return '';
}

/** Checks the whole file; the rows as tasks when there is no error. */
async function checkBatch(
  ctx: AppContext,
  auth: AuthContext,
  input: BatchInput,
  locale: Locale,
): Promise<{ errors: BatchError[]; rows: CheckedRow[] }> {
  const errors: BatchError[] = [];
  const say = (row: number, column: string, id: string, params: Record<string, unknown> = {}) =>
    errors.push({
      row,
      column,
      message: isMessageId(id) ? t(locale, id, params as Record<string, string | number>) : id,
    });
  if (input.base.kind !== 'mixed') throw refuse('validation.invalid');
  const read = readCsv(input.csv);
  if ('openAt' in read) {
    say(read.openAt, '', 'videoTaskBatch.badQuotes');
    return { errors, rows: [] };
  }
  const [header, ...data] = read.rows;
  const columns = (header?.cells ?? []).map((c) => c.trim().toLowerCase());
  for (const column of columns) {
    if (!BATCH_COLUMNS.includes(column as BatchColumn)) {
      say(1, column, 'videoTaskBatch.unknownColumn', { column, columns: BATCH_COLUMNS.join(', ') });
    }
  }
  if (!columns.includes('name')) say(1, 'name', 'videoTaskBatch.noNameColumn');
  if (data.length === 0) say(0, '', 'videoTaskBatch.noRows');
  if (data.length > BATCH_LIMITS.rows) {
    say(0, '', 'videoTaskBatch.tooManyRows', { max: BATCH_LIMITS.rows });
  }
  if (errors.length > 0) return { errors, rows: [] };

  const rows: CheckedRow[] = [];
  for (const { row, cells } of data) {
    const before = errors.length;
    if (cells.length > columns.length) say(row, '', 'videoTaskBatch.extraCells');
    const cell = (column: BatchColumn) => {
      const i = columns.indexOf(column);
      return i < 0 ? '' : (cells[i] ?? '').trim();
    };
    const whole = (column: BatchColumn): number | undefined => {
      const value = cell(column);
      if (value === '') return undefined;
      if (!/^\d{1,9}$/.test(value)) {
        say(row, column, 'videoTaskBatch.notNumber');
        return Number.NaN;
      }
      return Number(value);
    };
    if (cell('voice') !== '') say(row, 'voice', 'videoTaskBatch.voiceUnsupported');
    const music = whole('music');
    const count = whole('count');
    const base = input.base;
    const style = base.titles?.[0] ?? { size: 48, color: '#FFFFFF', position: 'top' as const };
    const body = {
      ...base,
      name: cell('name'),
      ...(count !== undefined ? { count } : {}),
      ...(cell('title') ? { titles: [{ ...style, text: cell('title') }] } : {}),
      ...(cell('subtitle')
        ? { subtitles: { ...(base.subtitles ?? {}), text: cell('subtitle') } }
        : {}),
      ...(music !== undefined ? { music_ids: [music] } : {}),
    };
    if (errors.length > before) continue;
    const parsed = mixedTaskBody.safeParse(body);
    if (!parsed.success) {
      const seen = new Set<string>();
      for (const issue of (parsed.error as z.ZodError).issues) {
        const column = columnOfPath(issue.path);
        if (seen.has(column)) continue;
        seen.add(column);
        say(row, column, issue.message);
      }
      continue;
    }
    const params = parsed.data;
    try {
      rows.push({ row, params, plan: await planTask(ctx.db, auth.user.id, params) });
    } catch (error) {
      if (!(error instanceof AppError) || error.httpStatus >= 500) throw error;
      const column = columnOfRefusal(error.messageId, error.params, music ?? null);
      say(row, column, error.messageId, error.params);
    }
  }
  return { errors, rows };
}

/** POST /video_task/batch_estimate: every error of the file, or the whole batch's price. */
export async function estimateBatch(
  ctx: AppContext,
  auth: AuthContext,
  input: BatchInput,
  locale: Locale,
): Promise<VideoTaskBatchEstimate> {
  const { errors, rows } = await checkBatch(ctx, auth, input, locale);
  const unit = await outputPrice(ctx, auth.user);
  const outputs = errors.length ? 0 : rows.reduce((sum, r) => sum + r.plan.count, 0);
  return {
    valid: errors.length === 0,
    errors,
    tasks: errors.length ? 0 : rows.length,
    outputs,
    unit_cost: formatUnits('money', unit),
    cost: formatUnits('money', unit * outputs),
    balance: formatUnits('money', Number(auth.user.money)),
  };
}

/** The file's errors as one refusal (each named by row and column). */
function invalid(locale: Locale, errors: readonly BatchError[]): AppError {
  const list = errors
    .map((e) =>
      e.column
        ? t(locale, 'videoTaskBatch.errorAt', { row: e.row, column: e.column, message: e.message })
        : t(locale, 'videoTaskBatch.errorAtRow', { row: e.row, message: e.message }),
    )
    .join('; ');
  return refuse('videoTaskBatch.invalid', { count: errors.length, list });
}

/**
 * POST /video_task/batch_add: the whole file checked (refused with every error), then in one
 * transaction the batch, one hold of its whole price and a task per row; then the outputs are
 * enqueued.
 */
export async function addBatch(
  ctx: AppContext,
  auth: AuthContext,
  input: BatchInput,
  locale: Locale,
  idempotency: Idempotency | undefined,
  audit: AuditTrail,
): Promise<VideoTaskBatchAddReply> {
  const first = await checkBatch(ctx, auth, input, locale);
  if (first.errors.length) throw invalid(locale, first.errors);
  const unit = await outputPrice(ctx, auth.user);
  const ownerId = auth.user.id;
  const made = await runMoney(
    ctx,
    async (trx) => {
      // Checked again inside: the library may have changed since.
      const rows: CheckedRow[] = [];
      for (const r of first.rows) {
        rows.push({ ...r, plan: await planTask(trx, ownerId, r.params) });
      }
      const total = rows.reduce((sum, r) => sum + unit * r.plan.count, 0);
      await lockUsers(ctx, trx, [ownerId]);
      const balance = await balanceOf(trx, ownerId, 'money');
      if (balance < total) {
        throw refuse('videoTask.insufficient', {
          amount: formatUnits('money', total),
          balance: formatUnits('money', balance),
        });
      }
      const now = ctx.now();
      const batch = await trx
        .insertInto('video_task_batches')
        .values({
          owner_id: ownerId,
          name: input.name,
          tasks: rows.length,
          frozen: total,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const batchId = Number(batch.id);
      const holdId = await openHold(ctx, trx, {
        userId: ownerId,
        asset: 'money',
        relatedType: BATCH_RELATED,
        relatedId: batchId,
        amount: total,
        memo: {
          id: 'memo.taskFreeze',
          params: {
            name: input.name,
            count: String(rows.reduce((s, r) => s + r.plan.count, 0)),
          },
        },
      });
      const ids: number[] = [];
      const outputIds: number[] = [];
      for (const r of rows) {
        const task = await insertTask(trx, ownerId, r, unit, holdId, now);
        ids.push(task.id);
        outputIds.push(...task.outputIds);
      }
      audit.target(batchId);
      audit.change(null, {
        name: input.name,
        tasks: ids.length,
        outputs: outputIds.length,
        frozen: formatUnits('money', total),
      });
      return { batchId, ids, outputIds };
    },
    idempotency,
    audit,
  );
  await enqueueOutputs(ctx, made.outputIds, { onlyNew: true });
  return { batch_id: made.batchId, ids: made.ids };
}

/** One row's task, its outputs (paid by the batch's hold) and its resource references. */
async function insertTask(
  trx: Trx,
  ownerId: number,
  { params, plan }: CheckedRow,
  unit: number,
  holdId: number,
  now: number,
): Promise<{ id: number; outputIds: number[] }> {
  const task = await trx
    .insertInto('video_tasks')
    .values({
      owner_id: ownerId,
      kind: params.kind,
      name: params.name,
      status: 'pending',
      params: JSON.stringify(params),
      total: plan.count,
      unit_price: unit,
      frozen: unit * plan.count,
      progress_at: now,
      created_at: now,
      updated_at: now,
      finished_at: null,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(task.id);
  const rows = await trx
    .insertInto('video_outputs')
    .values(
      plan.pick(id).map((combination, i) => ({
        task_id: id,
        idx: i + 1,
        status: 'queued',
        combination: JSON.stringify(combination),
        planned_ms: plan.plannedMs(combination),
        billing: 'held' as const,
        price: unit,
        hold_id: holdId,
        job_id: null,
        storage_key: null,
        poster_key: null,
        duration_ms: null,
        size: null,
        width: null,
        height: null,
        reason_id: null,
        reason_params: null,
        reason_detail: null,
        started_at: null,
        finished_at: null,
        updated_at: now,
      })),
    )
    .returning('id')
    .execute();
  await trx
    .insertInto('resource_refs')
    .values(
      plan.resourceIds.map((resourceId) => ({
        resource_id: resourceId,
        task_kind: RELATED,
        task_id: id,
        created_at: now,
      })),
    )
    .execute();
  return { id, outputIds: rows.map((r) => Number(r.id)) };
}
