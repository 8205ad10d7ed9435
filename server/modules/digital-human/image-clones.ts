import { sql, type SqlBool } from 'kysely';
import {
  DH_LIMITS,
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
import type { Condition } from '../../platform/db/conditions';
import type { Executor } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import type { AuditTrail } from '../../platform/http/audit-trail';
import type { Idempotency } from '../ledger';
import { signedUrlsOf } from '../resources';
import {
  addClone,
  checkBytes,
  checkSeconds,
  clonePage,
  cloneState,
  deleteClones,
  queuedClone,
  type CloneKind,
  type CloneStateRow,
} from './clone-kinds';
import { cloneFilters, ownMedia, type SourceMedia } from './clones-repo';

/** Units of `image_clone` one clone costs (docs/domain.md §9). */
export const IMAGE_CLONE_COST = 1;

const IMAGE: CloneKind = {
  table: 'dh_image_clones',
  cost: IMAGE_CLONE_COST,
  usedBy: 'avatar_id',
  notFound: 'digitalHuman.cloneNotFound',
  files: ['poster_key', 'loop_key'],
};

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
  const limits = DH_LIMITS.imageCloneVideo;
  checkSeconds(checkVideo(video), limits, 'digitalHuman.sourceDuration');
  checkBytes(video.size, limits.maxBytes, 'digitalHuman.sourceSize');
  if (Number(body.consent_video_id) === video.id) throw refuse('digitalHuman.consentSame');
  const consent = await ownMedia(db, ownerId, Number(body.consent_video_id));
  checkSeconds(checkVideo(consent), DH_LIMITS.consentVideo, 'digitalHuman.consentDuration');
}

/**
 * POST /digital_human/image_clone_add: in one transaction the sources are checked again, the row
 * inserted (queued, billing held), the sources referenced (their files stay while the clone
 * exists) and one `image_clone` frozen (refused with the amount needed: nothing changes); then
 * its job is enqueued.
 */
export function addImageClone(
  ctx: AppContext,
  ownerId: number,
  body: ImageCloneAddBody,
  idempotency?: Idempotency,
  /** The call's (none when the demo data is seeded). */
  audit?: AuditTrail,
): Promise<DhAddReply> {
  const sources = [Number(body.video_id), Number(body.consent_video_id)];
  return addClone(
    ctx,
    IMAGE,
    {
      ownerId,
      name: body.name,
      sources,
      check: (db) => checkSources(db, ownerId, body),
      insert: async (trx, now) => {
        const row = await trx
          .insertInto('dh_image_clones')
          .values({
            ...queuedClone(ctx, now),
            owner_id: ownerId,
            name: body.name,
            tier: body.tier,
            video_id: sources[0],
            consent_video_id: sources[1],
            poster_key: null,
            loop_key: null,
            width: null,
            height: null,
            vendor_ref: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return Number(row.id);
      },
    },
    idempotency,
    audit,
  );
}

interface ImageCloneRow extends CloneStateRow {
  id: number;
  owner_id: number;
  owner_name: string;
  name: string;
  tier: string;
  video_id: number;
  consent_video_id: number;
  poster_key: string | null;
  loop_key: string | null;
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
  return {
    id: Number(row.id),
    owner_id: Number(row.owner_id),
    owner_name: row.owner_name,
    name: row.name,
    tier: row.tier as ImageCloneTier,
    ...cloneState(locale, row),
    video_id: Number(row.video_id),
    consent_video_id: Number(row.consent_video_id),
    cover: ready && row.poster_key ? await urls.url(row.poster_key) : null,
    preview_url: ready && row.loop_key ? await urls.url(row.loop_key) : null,
  };
}

/** GET /digital_human/image_clone_list: the caller's clones; admin every user's. */
export function imageCloneList(
  ctx: AppContext,
  auth: AuthContext,
  query: ImageCloneListParams,
  locale: Locale,
): Promise<ImageClonePage> {
  const where: Condition[] = [sql<SqlBool>`c.deleted_at is null`, ...cloneFilters('c', query)];
  if (auth.role !== 'admin') where.push(sql<SqlBool>`c.owner_id = ${auth.user.id}`);
  return clonePage(ctx, IMAGE, selectClones(ctx.db), where, query, (row) =>
    toImageClone(ctx, locale, row),
  );
}

/**
 * POST /digital_human/image_clone_delete: the caller's ready or failed clones (refused while one
 * is queued or training, or used by a video not finished yet); each is hidden, its source
 * references dropped (the sweep removes the source files no one refers to any more) in one
 * transaction, then its poster and loop removed.
 */
export function deleteImageClones(
  ctx: AppContext,
  auth: AuthContext,
  ids: readonly number[],
  audit: AuditTrail,
): Promise<DhDeleteReply> {
  return deleteClones(ctx, IMAGE, auth, ids, audit);
}
