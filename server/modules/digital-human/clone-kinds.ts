import { sql, type SelectQueryBuilder } from 'kysely';
import type {
  CloneStatus,
  DhAddReply,
  DhDeleteReply,
} from '../../../src/api/contract/digital-human';
import type { Locale } from '../../../src/api/contract/messages';
import type { AppContext, AuthContext } from '../../context';
import { allOf, rowCount, type Condition } from '../../platform/db/conditions';
import type { Executor } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import type { MessageId } from '../../platform/i18n';
import { runMoney, type Idempotency, type Trx } from '../ledger';
import { freezeWork } from './billing';
import { enqueueClone } from './clone-jobs';
import { megabytes, reasonOf, REF_KIND, seconds2 } from './clones-repo';

/**
 * The steps image clones (image-clones.ts) and voice clones (voice-clones.ts) take alike: add
 * (check, insert, reference the sources, freeze, enqueue), a list page, the status part of a
 * reply, delete. What differs is a kind's descriptor ({@link CloneKind}) and each kind's own
 * checks, columns and reply fields, which stay in its file.
 */

export type CloneTable = 'dh_image_clones' | 'dh_voice_clones';

/** The columns of a clone row that hold files the clone owns (removed with it). */
type FileColumn = 'poster_key' | 'loop_key' | 'demo_key';

/** What differs between the two clone tables for the shared steps. */
export interface CloneKind {
  table: CloneTable;
  /** Units of the table's asset one clone costs (docs/domain.md §9). */
  cost: number;
  /** The column of `dh_videos` that uses a clone of this kind. */
  usedBy: 'avatar_id' | 'voice_id';
  /** The refusal of a clone that is missing, deleted or another user's. */
  notFound: MessageId;
  /** Its files, in the order they are removed. */
  files: readonly FileColumn[];
}

/** Statuses a clone may be deleted in. */
export const DELETABLE: readonly CloneStatus[] = ['ready', 'failed'];

/** Refuses a length outside a limit's seconds (`id` with the seconds and the limits). */
export function checkSeconds(
  ms: number,
  limits: { minSeconds: number; maxSeconds: number },
  id: MessageId,
): void {
  if (ms < limits.minSeconds * 1000 || ms > limits.maxSeconds * 1000) {
    throw refuse(id, { seconds: seconds2(ms), min: limits.minSeconds, max: limits.maxSeconds });
  }
}

/** Refuses a file larger than `maxBytes` (`id` with both in MB). */
export function checkBytes(size: number, maxBytes: number, id: MessageId): void {
  if (size > maxBytes) throw refuse(id, { size: megabytes(size), max: megabytes(maxBytes) });
}

/** The columns a new clone row starts with (queued, billing held, no job yet), but its own. */
export function queuedClone(ctx: AppContext, now: number) {
  return {
    status: 'queued',
    provider: ctx.integrations.digitalHuman.name,
    vendor_job_id: null,
    job_id: null,
    queue_position: null,
    billing: 'held',
    reason_id: null,
    reason_params: null,
    reason_detail: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
    deleted_at: null,
  } as const;
}

export interface NewClone {
  ownerId: number;
  name: string;
  /** The resources it is made from (referenced while it exists). */
  sources: number[];
  /** The kind's checks (run before any lock, then again in the transaction). */
  check: (db: Executor) => Promise<void>;
  /** Inserts the row (see {@link queuedClone}); answers its id. */
  insert: (trx: Trx, now: number) => Promise<number>;
}

/**
 * Adds a clone: in one transaction the sources are checked again, the row inserted, the sources
 * referenced (their files stay while the clone exists) and the kind's cost frozen (refused with
 * the amount needed: nothing changes); then its job is enqueued.
 */
export async function addClone(
  ctx: AppContext,
  kind: CloneKind,
  clone: NewClone,
  idempotency?: Idempotency,
  audit?: AuditTrail,
): Promise<DhAddReply> {
  await clone.check(ctx.db); // refuses early, before any lock
  const reply = await runMoney(
    ctx,
    async (trx) => {
      await clone.check(trx);
      const now = ctx.now();
      const id = await clone.insert(trx, now);
      await trx
        .insertInto('resource_refs')
        .values(
          clone.sources.map((resourceId) => ({
            resource_id: resourceId,
            task_kind: REF_KIND[kind.table],
            task_id: id,
            created_at: now,
          })),
        )
        .execute();
      const work = { table: kind.table, id, ownerId: clone.ownerId, name: clone.name };
      await freezeWork(ctx, trx, work, kind.cost);
      audit?.change(null, { name: clone.name, sources: clone.sources, frozen: kind.cost });
      return { id };
    },
    idempotency,
    audit,
  );
  await enqueueClone(ctx, kind.table, reply.id);
  return reply;
}

/** The row columns every clone reply is made from. */
export interface CloneStateRow {
  status: string;
  reason_id: string | null;
  reason_params: string | null;
  progress: number;
  queue_position: number | null;
  provider: string;
  cost: number;
  refunded: number;
  created_at: number;
  finished_at: number | null;
}

/** The status, progress and billing fields of a clone's reply (a ready one is at 100 %). */
export function cloneState(locale: Locale, row: CloneStateRow) {
  const ready = row.status === 'ready';
  return {
    status: row.status as CloneStatus,
    reason: reasonOf(locale, row),
    progress: ready ? 100 : Number(row.progress),
    queue_position: row.queue_position === null ? null : Number(row.queue_position),
    demonstration: row.provider === 'embedded',
    cost: Number(row.cost),
    refunded: Number(row.refunded),
    created_at: Number(row.created_at),
    finished_at: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/**
 * One page of a clone list, newest first: `rows` is the kind's select of its table as `c`, `where`
 * the conditions on it (the count reads the same table and conditions).
 */
export async function clonePage<DB, TB extends keyof DB, Row, Item>(
  ctx: AppContext,
  kind: CloneKind,
  rows: SelectQueryBuilder<DB, TB, Row>,
  where: Condition[],
  page: { page: number; limit: number },
  toItem: (row: Row) => Promise<Item>,
): Promise<{ list: Item[]; total: number }> {
  const [count, found] = await Promise.all([
    sql<{
      n: number;
    }>`select count(*) as n from ${sql.table(kind.table)} as c where ${allOf(where)}`.execute(
      ctx.db,
    ),
    rows
      .where(allOf(where))
      .orderBy(sql`c.id`, 'desc')
      .limit(rowCount(page.limit))
      .offset(rowCount((page.page - 1) * page.limit))
      .execute(),
  ]);
  const list = await Promise.all(found.map(toItem));
  return { list, total: Number(count.rows[0].n) };
}

/**
 * Deletes the caller's ready or failed clones of a kind (refused while one is queued or training,
 * or used by a video not finished yet): in one transaction each is hidden and its source
 * references dropped (the sweep removes the source files no one refers to any more), then its
 * files removed.
 */
export async function deleteClones(
  ctx: AppContext,
  kind: CloneKind,
  auth: AuthContext,
  ids: readonly number[],
  audit: AuditTrail,
): Promise<DhDeleteReply> {
  const unique = [...new Set(ids.map(Number))];
  const keys = await runInTransaction(
    ctx.db,
    async (trx) => {
      const rows = [];
      for (const id of unique) {
        const row = await trx
          .selectFrom(kind.table)
          .select(['id', 'name', 'status'])
          .select(kind.files.map((column) => sql<string | null>`${sql.ref(column)}`.as(column)))
          .where('id', '=', id)
          .where('owner_id', '=', auth.user.id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!row) throw refuse(kind.notFound);
        if (!DELETABLE.includes(row.status as CloneStatus)) {
          throw refuse('digitalHuman.cloneBusy', { name: row.name });
        }
        rows.push(row);
      }
      const used = await trx
        .selectFrom('dh_videos')
        .select(sql<number>`${sql.ref(kind.usedBy)}`.as('clone_id'))
        .where(kind.usedBy, 'in', unique)
        .where('status', 'in', ['queued', 'creating'])
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (used) {
        const name = rows.find((r) => Number(r.id) === Number(used.clone_id))?.name ?? '';
        throw refuse('digitalHuman.cloneInUse', { name });
      }
      const now = ctx.now();
      const hidden = await trx
        .updateTable(kind.table)
        .set({ deleted_at: now, updated_at: now })
        .where('id', 'in', unique)
        .where('owner_id', '=', auth.user.id)
        .where('deleted_at', 'is', null)
        .where('status', 'in', DELETABLE)
        .executeTakeFirst();
      if (Number(hidden.numUpdatedRows) !== unique.length) {
        throw refuse('digitalHuman.cloneBusy', { name: rows[0].name });
      }
      await trx
        .deleteFrom('resource_refs')
        .where('task_kind', '=', REF_KIND[kind.table])
        .where('task_id', 'in', unique)
        .execute();
      audit.change({ deleted_at: null }, { deleted_at: now });
      return rows.flatMap((r) => kind.files.map((column) => r[column]).filter((k) => k !== null));
    },
    { audit },
  );
  for (const key of keys) await ctx.storage.delete(key);
  return { count: unique.length };
}
