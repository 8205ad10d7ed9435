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
import {
  mixedTaskBody,
  type VideoNarration,
  type VideoSubtitles,
  type VideoTaskParams,
} from '../../../src/api/contract/video-tasks';
import type { AppContext, AuthContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { AppError, refuse } from '../../platform/http/errors';
import { isMessageId, t } from '../../platform/i18n';
import { digitalManUnitCost } from '../digital-human';
import { balanceOf, lockUsers, openHold, runMoney, type Idempotency } from '../ledger';
import { MAX_INT4 } from '../resources';
import { BATCH_RELATED } from './billing';
import { planTask, type TaskPlan } from './check-body';
import { readCsv } from './csv';
import { insertTask } from './insert-task';
import { freezeNarration, narrationSeconds } from './narration';
import { enqueueOutputs } from './queue';
import { outputPrice } from './service';

/**
 * Mixed-cut tasks in a batch from a CSV file (docs/domain.md §9 "Presets, batches and
 * previews"). The whole file is checked before anything is written — the file's shape, then each
 * row as the task it makes (the contract's rules, then every check `add` runs) — and every error
 * is named by row and column. A valid batch is added in one transaction: one ledger hold of the
 * whole price (related row `video_task_batch`), then a task per row whose outputs carry that
 * hold's id; the hold is closed when the batch's last task finishes (billing.ts). A narrated row
 * (the row's `voice`, or the form's narration) also holds its speech seconds (`digital_man`, another
 * asset) as a single task does, settled on its real length when the task finishes (narration.ts).
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
  // The script is the subtitle column's; the voice its own (speed and volume are the form's).
  if (head === 'narration') return path[1] === 'text' ? 'subtitle' : 'voice';
  if (head === 'music_ids') return 'music';
  if (head === 'count') return 'count';
  return '';
}

function columnOfRefusal(id: string, params: Record<string, unknown>, music: number | null) {
  if (id === 'videoTask.tooManyOutputs') return 'count';
  if (id === 'videoTask.notMusic') return 'music';
  if (id === 'dhVideo.voiceMissing') return 'voice';
  if (id === 'videoTask.subtitlesEmpty') return 'subtitle';
  if (id === 'videoTask.resourceMissing' && music !== null && params.id === music) return 'music';
  return '';
}

/**
 * The voice a row's `voice` cell names: a whole number is a voice's id (checked with the task:
 * ready, the caller's or public); other text the exact name of one ready voice of the caller's or
 * a public one. A message id when no voice or several have that name.
 */
async function voiceOf(
  db: Executor,
  ownerId: number,
  value: string,
): Promise<
  { id: number } | { refusal: 'videoTaskBatch.voiceMissing' | 'videoTaskBatch.voiceAmbiguous' }
> {
  if (/^\d{1,10}$/.test(value) && Number(value) <= MAX_INT4) return { id: Number(value) };
  const found = await db
    .selectFrom('dh_voice_clones')
    .select('id')
    .where('name', '=', value)
    .where((eb) => eb.or([eb('owner_id', '=', ownerId), eb('owner_id', 'is', null)]))
    .where('status', '=', 'ready')
    .where('deleted_at', 'is', null)
    .limit(2)
    .execute();
  if (found.length === 1) return { id: Number(found[0].id) };
  return {
    refusal: found.length ? 'videoTaskBatch.voiceAmbiguous' : 'videoTaskBatch.voiceMissing',
  };
}

/** Subtitles without their words (a row's words replace the form's, timed lines too). */
function styleOf(subtitles: VideoSubtitles | undefined): VideoSubtitles {
  const { text: _text, lines: _lines, ...style } = subtitles ?? {};
  return style;
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
    const music = whole('music');
    const count = whole('count');
    const base = input.base;
    const style = base.titles?.[0] ?? { size: 48, color: '#FFFFFF', position: 'top' as const };
    // The subtitle column: the words shown; with a voice (the row's, else the form's narration)
    // also the script spoken, the subtitles then timed to the speech.
    const words = cell('subtitle');
    let voiceId = base.narration?.voice_id;
    if (cell('voice') !== '') {
      const voice = await voiceOf(ctx.db, auth.user.id, cell('voice'));
      if ('refusal' in voice) say(row, 'voice', voice.refusal, { voice: cell('voice') });
      else voiceId = voice.id;
    }
    let narration: VideoNarration | undefined;
    if (voiceId !== undefined) {
      const script = words || base.narration?.text || '';
      if (!script) say(row, 'subtitle', 'videoTaskBatch.voiceNeedsScript');
      narration = { speed: 1, volume: 1, ...base.narration, text: script, voice_id: voiceId };
    }
    const body = {
      ...base,
      name: cell('name'),
      ...(count !== undefined ? { count } : {}),
      ...(cell('title') ? { titles: [{ ...style, text: cell('title') }] } : {}),
      ...(words
        ? { subtitles: { ...styleOf(base.subtitles), ...(narration ? {} : { text: words }) } }
        : {}),
      ...(narration ? { narration } : {}),
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

/** The speech seconds of the batch's narrated rows (each task's estimate, as `add` holds it). */
const speechSeconds = (rows: readonly CheckedRow[]) =>
  rows.reduce((sum, r) => sum + (r.params.narration ? narrationSeconds(r.params.narration) : 0), 0);

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
  const seconds = errors.length ? 0 : speechSeconds(rows);
  return {
    valid: errors.length === 0,
    errors,
    tasks: errors.length ? 0 : rows.length,
    outputs,
    unit_cost: formatUnits('money', unit),
    cost: formatUnits('money', unit * outputs),
    balance: formatUnits('money', Number(auth.user.money)),
    ...(seconds > 0
      ? {
          narration: {
            seconds,
            cost: seconds * (await digitalManUnitCost(ctx, auth.user)),
            balance: await balanceOf(ctx.db, auth.user.id, 'digital_man'),
          },
        }
      : {}),
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
 * transaction the batch, one hold of its whole price and a task per row (insert-task.ts, the
 * rows `add` writes) with its narration's hold; then the outputs are enqueued.
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
  const speechPrice = speechSeconds(first.rows) > 0 ? await digitalManUnitCost(ctx, auth.user) : 0;
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
      // The narrated rows' speech, all of it, before any hold (each task then holds its own).
      const speech = speechSeconds(rows) * speechPrice;
      const seconds = await balanceOf(trx, ownerId, 'digital_man');
      if (seconds < speech) {
        throw refuse('digitalHuman.insufficient.digital_man', {
          amount: String(speech),
          balance: String(seconds),
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
      for (const { params, plan } of rows) {
        const narrationPrice = params.narration ? speechPrice : 0;
        const task = await insertTask(trx, {
          ownerId,
          params,
          plan,
          unit,
          narrationPrice,
          holdId,
          now,
        });
        if (params.narration) {
          const { id } = task;
          const amount = narrationSeconds(params.narration) * narrationPrice;
          await freezeNarration(ctx, trx, { id, ownerId, name: params.name }, amount);
        }
        ids.push(task.id);
        outputIds.push(...task.outputIds);
      }
      audit.target(batchId);
      audit.change(null, {
        name: input.name,
        tasks: ids.length,
        outputs: outputIds.length,
        frozen: formatUnits('money', total),
        ...(speech > 0 ? { narration_seconds: speech } : {}),
      });
      return { batchId, ids, outputIds };
    },
    idempotency,
    audit,
  );
  await enqueueOutputs(ctx, made.outputIds, { onlyNew: true });
  return { batch_id: made.batchId, ids: made.ids };
}
