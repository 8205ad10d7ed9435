import type {
  DhTemplateAddParams,
  DhTemplateEditParams,
  DhTemplateAddReply,
  DhTemplateDeleteReply,
} from '../../../src/api/contract/dh-templates';
import { TEMPLATE_LIMITS } from '../../../src/api/contract/dh-templates';
import type { DhVideoParams } from '../../../src/api/contract/digital-human';
import type { Locale } from '../../../src/api/contract/messages';
import { FRAME_SIZE } from '../../../src/api/contract/video-tasks';
import type { AppContext, AuthContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import { lockUsers } from '../ledger';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { AppError, refuse } from '../../platform/http/errors';
import { MAX_INT4 } from '../resources';
import { checkImageUse, PLATFORM_IMAGE_OWNER } from '../uploads';
import { settingsOfVideo } from './template-settings';
import {
  DEFAULT_TEMPLATE_KEY,
  mayChange,
  TEMPLATE_REF,
  templateName,
  type TemplateRow,
} from './templates';
import { findVideo } from './videos-repo';

/**
 * Changing video templates (docs/domain.md §10 "Video templates"): the admin adds, edits and
 * deletes the platform's; a partner or merchant its own (at most 50), and makes one from a
 * finished video. Each call checks everything in one transaction and changes nothing when it
 * refuses. A template holds the resources it names (`resource_refs` of kind `dh_template`), so a
 * file deleted from the library stays while a template shows it.
 */

/** The file columns of a template. */
interface TemplateFiles {
  background_resource_id: number | null;
  background_url: string | null;
  cover_resource_id: number | null;
  cover_url: string | null;
  demo_resource_id: number | null;
  music_resource_id: number | null;
}
type FileFields = Pick<
  DhTemplateAddParams,
  'background_image_id' | 'background_image_url' | 'cover_id' | 'cover_url' | 'demo_id' | 'music_id'
>;

const IMAGE_TYPES = ['image'];
const VIDEO_TYPES = ['video'];
const MUSIC_TYPES = ['bgm', 'audio'];

/**
 * A resource of `ownerId`'s of one of `types` whose file is there: live in the library, or one
 * the template already holds (`held`: deleted from the library since, its file kept for it).
 */
async function ownFile(
  db: Executor,
  ownerId: number,
  id: number,
  types: readonly string[],
  held: ReadonlySet<number>,
): Promise<boolean> {
  if (id > MAX_INT4) return false;
  const row = await db
    .selectFrom('resources')
    .select(['id', 'deleted_at'])
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('type', 'in', [...types])
    .where('file_deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined && (row.deleted_at === null || held.has(id));
}

/**
 * The files a body names, checked: the platform's templates take platform images (the admin has
 * no library), own templates resources of the owner's library; a platform image an own template
 * already holds (one made from a video of a platform template) may stay.
 */
async function checkFiles(
  db: Executor,
  auth: AuthContext,
  body: FileFields,
  held: { resources: ReadonlySet<number>; images: ReadonlySet<string> },
): Promise<TemplateFiles> {
  const ids = [body.background_image_id, body.cover_id, body.demo_id, body.music_id];
  const urls = [body.background_image_url, body.cover_url].filter(
    (u): u is string => typeof u === 'string',
  );
  if (auth.role === 'admin') {
    if (ids.some((x) => x !== null && x !== undefined)) throw refuse('dhTemplate.platformFiles');
    await checkImageUse(db, urls, 'content', [PLATFORM_IMAGE_OWNER], 'dhTemplate.imageMissing');
  } else {
    if (urls.some((u) => !held.images.has(u))) throw refuse('dhTemplate.ownFiles');
    const ownerId = auth.user.id;
    const check = async (
      id: number | null | undefined,
      types: readonly string[],
      message: 'dhTemplate.pictureMissing' | 'dhTemplate.demoMissing' | 'dhVideo.musicMissing',
    ) => {
      if (id === null || id === undefined) return;
      if (!(await ownFile(db, ownerId, id, types, held.resources))) throw refuse(message, { id });
    };
    await check(body.background_image_id, IMAGE_TYPES, 'dhTemplate.pictureMissing');
    await check(body.cover_id, IMAGE_TYPES, 'dhTemplate.pictureMissing');
    await check(body.demo_id, VIDEO_TYPES, 'dhTemplate.demoMissing');
    await check(body.music_id, MUSIC_TYPES, 'dhVideo.musicMissing');
  }
  return {
    background_resource_id: body.background_image_id ?? null,
    background_url: body.background_image_url ?? null,
    cover_resource_id: body.cover_id ?? null,
    cover_url: body.cover_url ?? null,
    demo_resource_id: body.demo_id ?? null,
    music_resource_id: body.music_id ?? null,
  };
}

const resourceIdsOf = (files: TemplateFiles) =>
  [
    files.background_resource_id,
    files.cover_resource_id,
    files.demo_resource_id,
    files.music_resource_id,
  ].filter((x): x is number => x !== null);

/** The template's `resource_refs` are exactly its files' (dropped ones let the sweep go on). */
async function holdFiles(trx: Executor, templateId: number, files: TemplateFiles, now: number) {
  await trx
    .deleteFrom('resource_refs')
    .where('task_kind', '=', TEMPLATE_REF)
    .where('task_id', '=', templateId)
    .execute();
  const ids = [...new Set(resourceIdsOf(files).map(Number))];
  if (ids.length === 0) return;
  await trx
    .insertInto('resource_refs')
    .values(
      ids.map((id) => ({
        resource_id: id,
        task_kind: TEMPLATE_REF,
        task_id: templateId,
        created_at: now,
      })),
    )
    .execute();
}

/**
 * Refuses a partner or merchant over its own limit of templates. The owner's row is locked first,
 * so two adds at once count one after the other (PostgreSQL; SQLite has one writer at a time).
 */
async function checkRoom(ctx: AppContext, trx: Executor, ownerId: number): Promise<void> {
  await lockUsers(ctx, trx, [ownerId]);
  const row = await trx
    .selectFrom('dh_templates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= TEMPLATE_LIMITS.perOwner) {
    throw refuse('dhTemplate.tooMany', { max: TEMPLATE_LIMITS.perOwner });
  }
}

/** The platform's templates come after the ones there are; own ones by id. */
async function nextSort(trx: Executor, ownerId: number | null): Promise<number> {
  if (ownerId !== null) return 0;
  const row = await trx
    .selectFrom('dh_templates')
    .select((eb) => eb.fn.max<number>('sort').as('sort'))
    .where('owner_id', 'is', null)
    .executeTakeFirst();
  return Number(row?.sort ?? 0) + 1;
}

interface NewTemplate {
  ownerId: number | null;
  name: string;
  ratio: DhTemplateAddParams['ratio'];
  width: number;
  height: number;
  layout: string;
  files: TemplateFiles;
}

async function insertTemplate(ctx: AppContext, trx: Executor, t: NewTemplate): Promise<number> {
  if (t.ownerId !== null) await checkRoom(ctx, trx, t.ownerId);
  const now = ctx.now();
  const row = await trx
    .insertInto('dh_templates')
    .values({
      key: null,
      owner_id: t.ownerId,
      name: t.name,
      ratio: t.ratio,
      width: t.width,
      height: t.height,
      layout: t.layout,
      cover_key: null,
      sort: await nextSort(trx, t.ownerId),
      ...t.files,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await holdFiles(trx, id, t.files, now);
  return id;
}

/** The frame of a ratio: the video tasks' 720p size (docs/domain.md §9 "Frame"). */
const frameOf = (ratio: DhTemplateAddParams['ratio']) => FRAME_SIZE[ratio]['720p'];

/** POST /digital_human/template_add: the admin's is the platform's; the others' their own. */
export async function addTemplate(
  ctx: AppContext,
  auth: AuthContext,
  body: DhTemplateAddParams,
  audit: AuditTrail,
): Promise<DhTemplateAddReply> {
  const ownerId = auth.role === 'admin' ? null : auth.user.id;
  const id = await runInTransaction(
    ctx.db,
    async (trx) => {
      const files = await checkFiles(trx, auth, body, { resources: new Set(), images: new Set() });
      const made = await insertTemplate(ctx, trx, {
        ownerId,
        name: body.name,
        ratio: body.ratio,
        ...frameOf(body.ratio),
        layout: JSON.stringify(body.layout),
        files,
      });
      audit.target(made);
      audit.change(null, { name: body.name, ratio: body.ratio, owner_id: ownerId });
      return made;
    },
    { audit },
  );
  return { id };
}

/**
 * A live template the caller may change: another user's (or, for the admin, any user's) answers
 * like a missing one; the platform's, to a partner or merchant, is refused (403): it sees them.
 */
async function changeable(trx: Executor, auth: AuthContext, id: number): Promise<TemplateRow> {
  const row =
    id > MAX_INT4
      ? undefined
      : await trx
          .selectFrom('dh_templates')
          .selectAll()
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
  if (row && row.owner_id === null && auth.role !== 'admin') {
    throw new AppError('dhTemplate.platformOnly', {}, 403);
  }
  if (!row || !mayChange(auth, row)) throw refuse('dhTemplate.notFound');
  return row;
}

/** What the audit compares of a template. */
const audited = (row: {
  name: string | null;
  ratio: string;
  layout: string;
  background_resource_id: number | null;
  background_url: string | null;
  cover_resource_id: number | null;
  cover_url: string | null;
  demo_resource_id: number | null;
  music_resource_id: number | null;
}) => ({
  name: row.name,
  ratio: row.ratio,
  layout: row.layout,
  background_resource_id: row.background_resource_id,
  background_url: row.background_url,
  cover_resource_id: row.cover_resource_id,
  cover_url: row.cover_url,
  demo_resource_id: row.demo_resource_id,
  music_resource_id: row.music_resource_id,
});

/**
 * POST /digital_human/template_edit: the whole template again; `name` absent keeps it (a built-in
 * template's stays translated). Videos already submitted keep the settings they were made with.
 */
export async function editTemplate(
  ctx: AppContext,
  auth: AuthContext,
  body: DhTemplateEditParams,
  audit: AuditTrail,
): Promise<null> {
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const row = await changeable(trx, auth, body.id);
      const held = {
        resources: new Set(
          [
            row.background_resource_id,
            row.cover_resource_id,
            row.demo_resource_id,
            row.music_resource_id,
          ]
            .filter((x): x is number => x !== null)
            .map(Number),
        ),
        images: new Set([row.background_url, row.cover_url].filter((x): x is string => !!x)),
      };
      const files = await checkFiles(trx, auth, body, held);
      const now = ctx.now();
      const next = {
        name: body.name ?? row.name,
        ratio: body.ratio,
        ...frameOf(body.ratio),
        layout: JSON.stringify(body.layout),
        ...files,
      };
      await trx
        .updateTable('dh_templates')
        .set({ ...next, updated_at: now })
        .where('id', '=', body.id)
        .where('deleted_at', 'is', null)
        .execute();
      await holdFiles(trx, body.id, files, now);
      audit.change(audited(row), audited(next));
    },
    { audit },
  );
  return null;
}

/** POST /digital_human/template_delete: hidden; the default template (portrait) stays. */
export async function deleteTemplates(
  ctx: AppContext,
  auth: AuthContext,
  ids: readonly number[],
  locale: Locale,
  audit: AuditTrail,
): Promise<DhTemplateDeleteReply> {
  const unique = [...new Set(ids)];
  await runInTransaction(
    ctx.db,
    async (trx) => {
      for (const id of unique) {
        const row = await changeable(trx, auth, id);
        if (row.key === DEFAULT_TEMPLATE_KEY) {
          throw refuse('dhTemplate.defaultKept', { name: templateName(locale, row) });
        }
      }
      const now = ctx.now();
      await trx
        .updateTable('dh_templates')
        .set({ deleted_at: now, updated_at: now })
        .where('id', 'in', unique)
        .where('deleted_at', 'is', null)
        .execute();
      await trx
        .deleteFrom('resource_refs')
        .where('task_kind', '=', TEMPLATE_REF)
        .where('task_id', 'in', unique)
        .execute();
      audit.change({ deleted_at: null }, { deleted_at: now });
    },
    { audit },
  );
  return { count: unique.length };
}

/** A file of `ownerId`'s whose bytes are still stored (a video holds what it used). */
async function storedFile(db: Executor, ownerId: number, id: number | null) {
  if (id === null || id > MAX_INT4) return null;
  const row = await db
    .selectFrom('resources')
    .select('id')
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('file_deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/**
 * POST /digital_human/template_from_video: an own template with a done video's frame, layout
 * (presenter, subtitle style, background colour), background picture and music (its own, else
 * its template's), as the video kept them at submit; its output (the video's work in the library)
 * is the demo video, whose poster is the cover.
 */
export async function templateFromVideo(
  ctx: AppContext,
  auth: AuthContext,
  body: { video_id: number; name: string },
  audit: AuditTrail,
): Promise<DhTemplateAddReply> {
  const ownerId = auth.user.id;
  const id = await runInTransaction(
    ctx.db,
    async (trx) => {
      const video = await findVideo(trx, ownerId, body.video_id);
      if (!video) throw refuse('dhVideo.notFound');
      if (video.status !== 'done') throw refuse('dhTemplate.videoNotDone', { name: video.name });
      const settings = await settingsOfVideo(trx, video);
      const params = JSON.parse(video.params) as DhVideoParams;
      const work = await trx
        .selectFrom('resources')
        .select('id')
        .where('owner_id', '=', ownerId)
        .where('source_kind', '=', 'dh_video')
        .where('source_id', '=', Number(video.id))
        .where('file_deleted_at', 'is', null)
        .executeTakeFirst();
      const background = settings.background;
      const files: TemplateFiles = {
        background_resource_id:
          background && 'resource_id' in background
            ? await storedFile(trx, ownerId, background.resource_id)
            : null,
        background_url: background && 'image_url' in background ? background.image_url : null,
        cover_resource_id: null,
        cover_url: null,
        demo_resource_id: work ? Number(work.id) : null,
        music_resource_id: await storedFile(
          trx,
          ownerId,
          params.music_id ?? settings.music_resource_id,
        ),
      };
      const made = await insertTemplate(ctx, trx, {
        ownerId,
        name: body.name,
        ratio: settings.ratio,
        width: settings.width,
        height: settings.height,
        layout: JSON.stringify(settings.layout),
        files,
      });
      audit.target(made);
      audit.change(null, { name: body.name, ratio: settings.ratio, video_id: body.video_id });
      return made;
    },
    { audit },
  );
  return { id };
}
