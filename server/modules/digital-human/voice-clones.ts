import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { sql, type SqlBool } from 'kysely';
import {
  DH_LIMITS,
  speechLanguageOf,
  type DhAddReply,
  type DhDeleteReply,
  type PlatformVoiceCloneListParams,
  type VoiceClone,
  type VoiceCloneAddBody,
  type VoiceCloneListParams,
  type VoiceClonePage,
  type VoiceGender,
  type VoicePreviewReply,
} from '../../../src/api/contract/digital-human';
import type { Locale } from '../../../src/api/contract/messages';
import type { AppContext, AuthContext } from '../../context';
import type { Condition } from '../../platform/db/conditions';
import { isUniqueViolation } from '../../platform/db/errors';
import type { Executor } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import { inWorkDir, openWorkDir } from '../../platform/jobs/work-dirs';
import type { VoiceProfile } from '../../integrations/digital-human/types';
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
import { cloneFilters, contentTypeOf, extOf, ownMedia, storeFile } from './clones-repo';

/** Units of `digital_voice` one clone costs (docs/domain.md §9). */
export const VOICE_CLONE_COST = 1;

const VOICE: CloneKind = {
  table: 'dh_voice_clones',
  cost: VOICE_CLONE_COST,
  usedBy: 'voice_id',
  notFound: 'digitalHuman.voiceNotFound',
  files: ['demo_key'],
};

/**
 * The checks of `voice_clone_add` on the caller's library (facts recorded by ffprobe at upload):
 * an audio resource of 10–30 s and at most 20 MB.
 */
async function checkSample(db: Executor, ownerId: number, audioId: number) {
  const audio = await ownMedia(db, ownerId, audioId);
  if (audio.type !== 'audio' || audio.duration_ms === null) {
    throw refuse('digitalHuman.notAudio', { name: audio.name });
  }
  const limits = DH_LIMITS.voiceSample;
  checkSeconds(audio.duration_ms, limits, 'digitalHuman.sampleDuration');
  checkBytes(audio.size, limits.maxBytes, 'digitalHuman.sampleSize');
}

/**
 * POST /digital_human/voice_clone_add: in one transaction the sample is checked again, the row
 * inserted (queued, billing held), the sample referenced and one `digital_voice` frozen (refused
 * with the amount needed: nothing changes); then its job is enqueued.
 */
export function addVoiceClone(
  ctx: AppContext,
  ownerId: number,
  body: VoiceCloneAddBody,
  idempotency?: Idempotency,
  /** The call's (none when the demo data is seeded). */
  audit?: AuditTrail,
): Promise<DhAddReply> {
  const audioId = Number(body.audio_id);
  return addClone(
    ctx,
    VOICE,
    {
      ownerId,
      name: body.name,
      sources: [audioId],
      check: (db) => checkSample(db, ownerId, audioId),
      insert: async (trx, now) => {
        const row = await trx
          .insertInto('dh_voice_clones')
          .values({
            ...queuedClone(ctx, now),
            owner_id: ownerId,
            public_key: null,
            name: body.name,
            gender: body.gender,
            audio_id: audioId,
            profile: null,
            demo_key: null,
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

// ---- public voices

const synced = new WeakMap<AppContext, Promise<void>>();

/**
 * Makes the provider's built-in voices rows of `dh_voice_clones` (owner null, `public_key`,
 * ready, free), once per app: new ones inserted, changed ones updated, the ones the provider no
 * longer offers hidden. Their ids are what `video_add` and `voice_preview` take.
 */
export function syncPublicVoices(ctx: AppContext): Promise<void> {
  let done = synced.get(ctx);
  if (!done) {
    done = doSync(ctx).catch((error: unknown) => {
      synced.delete(ctx);
      throw error;
    });
    synced.set(ctx, done);
  }
  return done;
}

async function doSync(ctx: AppContext): Promise<void> {
  const voices = ctx.integrations.digitalHuman.publicVoices();
  const provider = ctx.integrations.digitalHuman.name;
  for (const voice of voices) {
    const now = ctx.now();
    const values = {
      name: voice.name['zh-CN'],
      gender: voice.gender,
      profile: JSON.stringify(voice.profile),
      provider,
    };
    const existing = await ctx.db
      .selectFrom('dh_voice_clones')
      .select(['id', 'name', 'gender', 'profile', 'provider', 'deleted_at'])
      .where('public_key', '=', voice.key)
      .executeTakeFirst();
    if (!existing) {
      try {
        await ctx.db
          .insertInto('dh_voice_clones')
          .values({
            ...values,
            owner_id: null,
            public_key: voice.key,
            audio_id: null,
            demo_key: null,
            status: 'ready',
            vendor_job_id: null,
            job_id: null,
            progress: 100,
            queue_position: null,
            billing: 'settled',
            reason_id: null,
            reason_params: null,
            reason_detail: null,
            created_at: now,
            updated_at: now,
            started_at: null,
            finished_at: now,
            deleted_at: null,
          })
          .execute();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error; // another process synced it meanwhile
      }
      continue;
    }
    const same =
      existing.name === values.name &&
      existing.gender === values.gender &&
      existing.profile === values.profile &&
      existing.provider === provider &&
      existing.deleted_at === null;
    if (!same) {
      await ctx.db
        .updateTable('dh_voice_clones')
        .set({ ...values, deleted_at: null, updated_at: now })
        .where('id', '=', Number(existing.id))
        .execute();
    }
  }
  let gone = ctx.db
    .updateTable('dh_voice_clones')
    .set({ deleted_at: ctx.now() })
    .where('owner_id', 'is', null)
    .where('deleted_at', 'is', null);
  if (voices.length > 0) {
    gone = gone.where(
      'public_key',
      'not in',
      voices.map((v) => v.key),
    );
  }
  await gone.execute();
}

// ---- lists

interface VoiceRow extends CloneStateRow {
  id: number;
  owner_id: number | null;
  owner_name: string | null;
  public_key: string | null;
  name: string;
  gender: string;
  audio_id: number | null;
  demo_key: string | null;
}

function selectVoices(db: Executor) {
  return db
    .selectFrom('dh_voice_clones as c')
    .leftJoin('users as u', 'u.id', 'c.owner_id')
    .select([
      'c.id',
      'c.owner_id',
      'u.username as owner_name',
      'c.public_key',
      'c.name',
      'c.gender',
      'c.status',
      'c.reason_id',
      'c.reason_params',
      'c.progress',
      'c.queue_position',
      'c.audio_id',
      'c.demo_key',
      'c.provider',
      'c.cost',
      'c.refunded',
      'c.created_at',
      'c.finished_at',
    ]);
}

async function toVoice(ctx: AppContext, locale: Locale, row: VoiceRow): Promise<VoiceClone> {
  const ready = row.status === 'ready';
  const publicVoice =
    row.public_key === null
      ? undefined
      : ctx.integrations.digitalHuman.publicVoices().find((v) => v.key === row.public_key);
  return {
    id: Number(row.id),
    owner_id: row.owner_id === null ? null : Number(row.owner_id),
    owner_name: row.owner_id === null ? null : (row.owner_name ?? ''),
    name: publicVoice ? publicVoice.name[locale] : row.name,
    gender: row.gender as VoiceGender,
    scope: row.owner_id === null ? 'public' : 'mine',
    ...cloneState(locale, row),
    audio_id: row.audio_id === null ? null : Number(row.audio_id),
    demo_url:
      ready && row.demo_key ? await signedUrlsOf(ctx.storage, ctx.now).url(row.demo_key) : null,
  };
}

function voicePage(
  ctx: AppContext,
  locale: Locale,
  where: Condition[],
  page: { page: number; limit: number },
): Promise<VoiceClonePage> {
  return clonePage(ctx, VOICE, selectVoices(ctx.db), where, page, (row) =>
    toVoice(ctx, locale, row),
  );
}

/**
 * GET /digital_human/voice_clone_list: `mine` the caller's clones (admin: every user's), `public`
 * the provider's built-in voices (names in the caller's language).
 */
export async function voiceCloneList(
  ctx: AppContext,
  auth: AuthContext,
  query: VoiceCloneListParams,
  locale: Locale,
): Promise<VoiceClonePage> {
  const where: Condition[] = [sql<SqlBool>`c.deleted_at is null`];
  if (query.scope === 'public') {
    await syncPublicVoices(ctx);
    where.push(sql<SqlBool>`c.owner_id is null`);
    where.push(sql<SqlBool>`c.provider = ${ctx.integrations.digitalHuman.name}`);
    if (query.status) where.push(sql<SqlBool>`c.status = ${query.status}`);
    if (query.keyword) {
      // Public names are matched in the caller's language.
      const keyword = query.keyword.toLowerCase();
      const keys = ctx.integrations.digitalHuman
        .publicVoices()
        .filter((v) => v.name[locale].toLowerCase().includes(keyword))
        .map((v) => v.key);
      where.push(
        keys.length > 0 ? sql<SqlBool>`c.public_key in (${sql.join(keys)})` : sql<SqlBool>`1 = 0`,
      );
    }
  } else {
    where.push(...cloneFilters('c', query));
    where.push(
      auth.role === 'admin'
        ? sql<SqlBool>`c.owner_id is not null`
        : sql<SqlBool>`c.owner_id = ${auth.user.id}`,
    );
  }
  return voicePage(ctx, locale, where, query);
}

/** GET /platform/platform_voice_clone_list (admin): every user's voice clones. */
export async function platformVoiceCloneList(
  ctx: AppContext,
  query: PlatformVoiceCloneListParams,
  locale: Locale,
): Promise<VoiceClonePage> {
  const where: Condition[] = [
    sql<SqlBool>`c.deleted_at is null`,
    sql<SqlBool>`c.owner_id is not null`,
    ...cloneFilters('c', query),
  ];
  if (query.user_id !== undefined) where.push(sql<SqlBool>`c.owner_id = ${query.user_id}`);
  return voicePage(ctx, locale, where, query);
}

/**
 * POST /digital_human/voice_clone_delete: the caller's ready or failed clones (refused while one
 * is queued or training, or used by a video not finished yet); hidden, the sample's reference
 * dropped, then the demo file removed.
 */
export function deleteVoiceClones(
  ctx: AppContext,
  auth: AuthContext,
  ids: readonly number[],
  audit: AuditTrail,
): Promise<DhDeleteReply> {
  return deleteClones(ctx, VOICE, auth, ids, audit);
}

// ---- preview

/** Where a preview's speech and its facts are cached (by a hash of the voice and the text). */
const PREVIEW_AREA = 'dh/previews';

interface CachedPreview {
  key: string;
  duration: number;
}

async function readJson(ctx: AppContext, key: string): Promise<unknown> {
  const file = await ctx.storage.get(key);
  if (!file) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(Buffer.from(chunk as Buffer));
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A ready voice the caller may speak with: its own clone or a public voice of the current
 * provider (admin: any user's too). Another user's, a missing or a deleted one answer alike.
 */
export async function usableVoice(ctx: AppContext, auth: AuthContext, id: number) {
  await syncPublicVoices(ctx);
  const row = await ctx.db
    .selectFrom('dh_voice_clones')
    .select(['id', 'owner_id', 'name', 'status', 'profile', 'provider'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const mine = row && row.owner_id !== null && Number(row.owner_id) === auth.user.id;
  const shared =
    row && row.owner_id === null && row.provider === ctx.integrations.digitalHuman.name;
  const seen = row && row.owner_id !== null && auth.role === 'admin';
  if (!row || !(mine || shared || seen)) throw refuse('digitalHuman.voiceNotFound');
  if (row.status !== 'ready' || row.profile === null) {
    throw refuse('digitalHuman.voiceNotReady', { name: row.name });
  }
  return { ...row, profile: JSON.parse(row.profile) as VoiceProfile };
}

/**
 * POST /digital_human/voice_preview: the text spoken by a ready voice, synthesized by the
 * provider once per voice and text (cached in the storage by their hash), answered as a signed
 * URL (1 hour).
 */
export async function voicePreview(
  ctx: AppContext,
  auth: AuthContext,
  body: { voice_id: number; text: string },
): Promise<VoicePreviewReply> {
  const voice = await usableVoice(ctx, auth, Number(body.voice_id));
  const hash = createHash('sha256')
    .update(
      `${ctx.integrations.digitalHuman.name}\n${voice.id}\n${JSON.stringify(voice.profile)}\n${body.text}`,
    )
    .digest('hex')
    .slice(0, 40);
  const factsKey = `${PREVIEW_AREA}/${hash}.json`;
  let cached = (await readJson(ctx, factsKey)) as CachedPreview | undefined;
  if (!cached || !(await ctx.storage.exists(cached.key))) {
    // Under DATA_DIR/work like every outside work's (docs/architecture.md §The path of a job).
    const workDir = await openWorkDir(ctx.config.dataDir, 'dh-voice-preview', hash.slice(0, 12));
    try {
      const speech = await inWorkDir(workDir, () =>
        ctx.integrations.digitalHuman.synthesize(
          {
            text: body.text,
            language: speechLanguageOf(body.text),
            voice: voice.profile,
            speed: 1,
            volume: 1,
          },
          { workDir, signal: AbortSignal.timeout(120_000) },
        ),
      );
      const ext = extOf(speech.audioPath) || '.wav';
      const key = await storeFile(ctx, `${PREVIEW_AREA}/${hash}${ext}`, speech.audioPath, {
        contentType: contentTypeOf(speech.audioPath),
        filename: `preview${ext}`,
      });
      cached = { key, duration: Math.round(speech.duration * 100) / 100 };
      await ctx.storage.put(factsKey, Buffer.from(JSON.stringify(cached)), {
        contentType: 'application/json',
      });
    } finally {
      await fs.rm(workDir, { recursive: true, force: true });
    }
  }
  const signed = await ctx.storage.signedReadUrl(cached.key);
  return {
    url: signed.url,
    duration: cached.duration,
    demonstration: ctx.integrations.digitalHuman.demonstration,
  };
}
