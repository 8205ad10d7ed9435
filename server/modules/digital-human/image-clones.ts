import { sql, type SqlBool } from 'kysely';
import {
  DH_LIMITS,
  type CloneStatus,
  type DhAddReply,
  type DhDeleteReply,
  type ImageClone,
  type ImageCloneAddBody,
  type ImageCloneListParams,
  type ImageClonePage,
  type ImageCloneTier,
} from '../../../src/api/contract/digital-human';
import type { Locale } from '../../../src/api/contract/messages';
import type { AppContext, AuthContext } from '../../context';
import { allOf, rowCount, type Condition } from '../../db/conditions';
import type { Executor } from '../../db/schema';
import { refuse } from '../../http/errors';
import { runMoney, type Idempotency } from '../ledger/service';
import { signedUrlsOf } from '../resources/signed-url-cache';
import { freezeWork } from './billing';
import { enqueueClone } from './clone-jobs';
import {
  cloneFilters,
  megabytes,
  ownMedia,
  reasonOf,
  REF_KIND,
  seconds2,
  type SourceMedia,
} from './clones-repo';

/** Units of `image_clone` one clone costs (DOMAIN.md §12). */
export const IMAGE_CLONE_COST = 1;

/** Statuses a clone may be deleted in. */
export const DELETABLE: readonly CloneStatus[] = ['ready', 'failed'];

/** A video resource of the caller's with a known length (else refused like the wrong type). */
function checkVideo(media: SourceMedia): number {
  if (media.type !== 'video' || media.duration_ms === null) {
    throw refuse('digitalHuman.notVideo', { name: media.name });
  }
  return media.duration_ms;
}

/**
 * The checks of `image_clone_add` on the caller's library (facts recorded by ffprobe at upload):
 * the source is a video of 30–600 s and at most 100 MB, the consent video another video of 1–120
 * s. The one-take check needs the frames: the job runs it.
 */
async function checkSources(db: Executor, ownerId: number, body: ImageCloneAddBody) {
  const video = await ownMedia(db, ownerId, Number(body.video_id));
  const ms = checkVideo(video);
  const limits = DH_LIMITS.imageCloneVideo;
  if (ms < limits.minSeconds * 1000 || ms > limits.maxSeconds * 1000) {
    throw refuse('digitalHuman.sourceDuration', {
      seconds: seconds2(ms),
      min: limits.minSeconds,
      max: limits.maxSeconds,
    });
  }
  if (video.size > limits.maxBytes) {
    throw refuse('digitalHuman.sourceSize', {
      size: megabytes(video.size),
      max: megabytes(limits.maxBytes),
    });
  }
  if (Number(body.consent_video_id) === video.id) throw refuse('digitalHuman.consentSame');
  const consent = await ownMedia(db, ownerId, Number(body.consent_video_id));
  const consentMs = checkVideo(consent);
  const c = DH_LIMITS.consentVideo;
  if (consentMs < c.minSeconds * 1000 || consentMs > c.maxSeconds * 1000) {
    throw refuse('digitalHuman.consentDuration', {
      seconds: seconds2(consentMs),
      min: c.minSeconds,
      max: c.maxSeconds,
    });
  }
}

/**
 * POST /digital_human/image_clone_add: in one transaction the sources are checked again, the row
 * inserted (queued, billing held), the sources referenced (their files stay while the clone
 * exists) and one `image_clone` frozen (refused with the amount needed: nothing changes); then
 * its job is enqueued.
 */
export async function addImageClone(
  ctx: AppContext,
  ownerId: number,
  body: ImageCloneAddBody,
  idempotency?: Idempotency,
): Promise<DhAddReply> {
  await checkSources(ctx.db, ownerId, body); // refuses early, before any lock
  const reply = await runMoney(
    ctx,
    async (trx) => {
      await checkSources(trx, ownerId, body);
      const now = ctx.now();
      const row = await trx
        .insertInto('dh_image_clones')
        .values({
          owner_id: ownerId,
          name: body.name,
          tier: body.tier,
          video_id: Number(body.video_id),
          consent_video_id: Number(body.consent_video_id),
          poster_key: null,
          loop_key: null,
          width: null,
          height: null,
          vendor_ref: null,
          status: 'queued',
          provider: ctx.digitalHuman.name,
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
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      await trx
        .insertInto('resource_refs')
        .values(
          [Number(body.video_id), Number(body.consent_video_id)].map((resourceId) => ({
            resource_id: resourceId,
            task_kind: REF_KIND.dh_image_clones,
            task_id: id,
            created_at: now,
          })),
        )
        .execute();
      await freezeWork(
        ctx,
        trx,
        { table: 'dh_image_clones', id, ownerId, name: body.name },
        IMAGE_CLONE_COST,
      );
      return { id };
    },
    idempotency,
  );
  await enqueueClone(ctx, 'dh_image_clones', reply.id);
  return reply;
}

interface ImageCloneRow {
  id: number;
  owner_id: number;
  owner_name: string;
  name: string;
  tier: string;
  status: string;
  reason_id: string | null;
  reason_params: string | null;
  progress: number;
  queue_position: number | null;
  video_id: number;
  consent_video_id: number;
  poster_key: string | null;
  loop_key: string | null;
  provider: string;
  cost: number;
  refunded: number;
  created_at: number;
  finished_at: number | null;
}

function selectClones(db: Executor) {
  return db
    .selectFrom('dh_image_clones as c')
    .innerJoin('users as u', 'u.id', 'c.owner_id')
    .select([
      'c.id',
      'c.owner_id',
      'u.username as owner_name',
      'c.name',
      'c.tier',
      'c.status',
      'c.reason_id',
      'c.reason_params',
      'c.progress',
      'c.queue_position',
      'c.video_id',
      'c.consent_video_id',
      'c.poster_key',
      'c.loop_key',
      'c.provider',
      'c.cost',
      'c.refunded',
      'c.created_at',
      'c.finished_at',
    ])
    .where('c.deleted_at', 'is', null);
}

async function toImageClone(
  ctx: AppContext,
  locale: Locale,
  row: ImageCloneRow,
): Promise<ImageClone> {
  const urls = signedUrlsOf(ctx.storage, ctx.now);
  const ready = row.status === 'ready';
  const status = row.status as CloneStatus;
  return {
    id: Number(row.id),
    owner_id: Number(row.owner_id),
    owner_name: row.owner_name,
    name: row.name,
    tier: row.tier as ImageCloneTier,
    status,
    reason: reasonOf(locale, row),
    progress: ready ? 100 : Number(row.progress),
    queue_position: row.queue_position === null ? null : Number(row.queue_position),
    video_id: Number(row.video_id),
    consent_video_id: Number(row.consent_video_id),
    cover: ready && row.poster_key ? await urls.url(row.poster_key) : null,
    preview_url: ready && row.loop_key ? await urls.url(row.loop_key) : null,
    demonstration: row.provider === 'embedded',
    cost: Number(row.cost),
    refunded: Number(row.refunded),
    created_at: Number(row.created_at),
    finished_at: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/** GET /digital_human/image_clone_list: the caller's clones; admin every user's. */
export async function imageCloneList(
  ctx: AppContext,
  auth: AuthContext,
  query: ImageCloneListParams,
  locale: Locale,
): Promise<ImageClonePage> {
  const where: Condition[] = [sql<SqlBool>`c.deleted_at is null`, ...cloneFilters('c', query)];
  if (auth.role !== 'admin') where.push(sql<SqlBool>`c.owner_id = ${auth.user.id}`);
  const [count, rows] = await Promise.all([
    ctx.db
      .selectFrom('dh_image_clones as c')
      .select(sql<number>`count(*)`.as('n'))
      .where(allOf(where))
      .executeTakeFirstOrThrow(),
    selectClones(ctx.db)
      .where(allOf(where))
      .orderBy('c.id', 'desc')
      .limit(rowCount(query.limit))
      .offset(rowCount((query.page - 1) * query.limit))
      .execute(),
  ]);
  const list = await Promise.all(rows.map((row) => toImageClone(ctx, locale, row)));
  return { list, total: Number(count.n) };
}

/**
 * POST /digital_human/image_clone_delete: the caller's ready or failed clones (refused while one
 * is queued or training, or used by a video not finished yet); each is hidden, its source
 * references dropped (the sweep removes the source files no one refers to any more) in one
 * transaction, then its poster and loop removed.
 */
export async function deleteImageClones(
  ctx: AppContext,
  auth: AuthContext,
  ids: readonly number[],
): Promise<DhDeleteReply> {
  const unique = [...new Set(ids.map(Number))];
  const keys = await ctx.db.transaction().execute(async (trx) => {
    const rows = [];
    for (const id of unique) {
      const row = await trx
        .selectFrom('dh_image_clones')
        .select(['id', 'name', 'status', 'poster_key', 'loop_key'])
        .where('id', '=', id)
        .where('owner_id', '=', auth.user.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!row) throw refuse('digitalHuman.cloneNotFound');
      if (!DELETABLE.includes(row.status as CloneStatus)) {
        throw refuse('digitalHuman.cloneBusy', { name: row.name });
      }
      rows.push(row);
    }
    const used = await trx
      .selectFrom('dh_videos')
      .select('avatar_id')
      .where('avatar_id', 'in', unique)
      .where('status', 'in', ['queued', 'creating'])
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (used) {
      const name = rows.find((r) => Number(r.id) === Number(used.avatar_id))?.name ?? '';
      throw refuse('digitalHuman.cloneInUse', { name });
    }
    const now = ctx.now();
    const hidden = await trx
      .updateTable('dh_image_clones')
      .set({ deleted_at: now, updated_at: now })
      .where('id', 'in', unique)
      .where('deleted_at', 'is', null)
      .where('status', 'in', DELETABLE)
      .executeTakeFirst();
    if (Number(hidden.numUpdatedRows) !== unique.length) {
      throw refuse('digitalHuman.cloneBusy', { name: rows[0].name });
    }
    await trx
      .deleteFrom('resource_refs')
      .where('task_kind', '=', REF_KIND.dh_image_clones)
      .where('task_id', 'in', unique)
      .execute();
    return rows.flatMap((r) => [r.poster_key, r.loop_key].filter((k) => k !== null));
  });
  for (const key of keys) await ctx.storage.delete(key);
  return { count: unique.length };
}
