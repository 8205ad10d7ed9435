import type { Locale } from '../../../src/api/contract/messages';
import type {
  DhTemplate,
  DhTemplateList,
  DhTemplateListParams,
  TemplateFile,
  TemplateLayout,
  TemplateRatio,
} from '../../../src/api/contract/dh-templates';
import type { AppContext, AuthContext } from '../../context';
import type { DhTemplatesTable, Executor } from '../../platform/db/schema';
import { isMessageId, t } from '../../platform/i18n';
import { signedUrlsOf } from '../resources';
import type { Selectable } from 'kysely';

/**
 * Reading video templates (docs/domain.md §10 "Video templates"): which a caller sees, and a
 * template as the replies show it. Changing them: template-edit.ts; what a video keeps of its
 * template: template-settings.ts.
 */

export type TemplateRow = Selectable<DhTemplatesTable>;

/** The template a video without one uses: the portrait frame (9:16, 720×1280). */
export const DEFAULT_TEMPLATE_KEY = 'portrait';

/** `resource_refs.task_kind` of a template's files: kept while the template holds them. */
export const TEMPLATE_REF = 'dh_template';

/** A template by id, deleted or not (an old video's template, before its settings were kept). */
export async function findTemplate(db: Executor, id: number): Promise<TemplateRow | undefined> {
  return db.selectFrom('dh_templates').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * A template `userId` may use: live, and the platform's or its own; another user's answers like
 * a missing one (docs/domain.md §2).
 */
export async function usableTemplate(
  db: Executor,
  userId: number,
  id: number,
): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('dh_templates')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('owner_id', 'is', null), eb('owner_id', '=', userId)]))
    .executeTakeFirst();
}

/** The default template (portrait), deleted or not: it is never deleted (template-edit.ts). */
export async function defaultTemplate(db: Executor): Promise<TemplateRow> {
  return db
    .selectFrom('dh_templates')
    .selectAll()
    .where('key', '=', DEFAULT_TEMPLATE_KEY)
    .executeTakeFirstOrThrow();
}

/** The template of a video: its own, or the default (portrait) one when it has none. */
export async function templateOf(db: Executor, id: number | null): Promise<TemplateRow> {
  const own = id === null ? undefined : await findTemplate(db, id);
  return own ?? defaultTemplate(db);
}

export function templateName(locale: Locale, row: Pick<TemplateRow, 'key' | 'name'>): string {
  if (row.name !== null) return row.name;
  const id = `dhTemplate.${row.key ?? ''}`;
  return isMessageId(id) ? t(locale, id) : (row.key ?? '');
}

/** Whether `auth` may change the template: the admin the platform's, the others their own. */
export function mayChange(auth: AuthContext, row: Pick<TemplateRow, 'owner_id'>): boolean {
  return auth.role === 'admin'
    ? row.owner_id === null
    : row.owner_id !== null && Number(row.owner_id) === auth.user.id;
}

/**
 * GET /digital_human/template_list: the platform's templates and the caller's own (the admin has
 * none of its own), platform first, then by sort and id; `scope` and `ratio` narrow it.
 */
export async function templateList(
  ctx: AppContext,
  auth: AuthContext,
  query: DhTemplateListParams,
  locale: Locale,
): Promise<DhTemplateList> {
  const userId = auth.user.id;
  let select = ctx.db
    .selectFrom('dh_templates')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where((eb) =>
      query.scope === 'platform'
        ? eb('owner_id', 'is', null)
        : query.scope === 'mine'
          ? eb('owner_id', '=', userId)
          : eb.or([eb('owner_id', 'is', null), eb('owner_id', '=', userId)]),
    );
  if (query.ratio) select = select.where('ratio', '=', query.ratio);
  const rows = await select
    .orderBy((eb) => eb.case().when('owner_id', 'is', null).then(0).else(1).end())
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const files = await filesOf(ctx, rows);
  return { list: await Promise.all(rows.map((row) => toTemplate(ctx, auth, row, files, locale))) };
}

interface FileRow {
  id: number;
  name: string;
  type: string;
  storage_key: string;
  poster_key: string | null;
}
interface ImageRow {
  name: string;
  original_name: string;
}

/** The resources and platform images the templates show, each read once. */
async function filesOf(ctx: AppContext, rows: readonly TemplateRow[]) {
  const ids = [
    ...new Set(
      rows.flatMap((r) =>
        [
          r.background_resource_id,
          r.cover_resource_id,
          r.demo_resource_id,
          r.music_resource_id,
        ].filter((x): x is number => x !== null),
      ),
    ),
  ].map(Number);
  const names = [
    ...new Set(
      rows
        .flatMap((r) => [r.background_url, r.cover_url])
        .filter((x): x is string => x !== null)
        .map(imageNameOf),
    ),
  ];
  const resources =
    ids.length === 0
      ? []
      : await ctx.db
          .selectFrom('resources')
          .select(['id', 'name', 'type', 'storage_key', 'poster_key'])
          .where('id', 'in', ids)
          .where('file_deleted_at', 'is', null)
          .execute();
  const images =
    names.length === 0
      ? []
      : await ctx.db
          .selectFrom('platform_images')
          .select(['name', 'original_name'])
          .where('name', 'in', names)
          .execute();
  return {
    resources: new Map(resources.map((r) => [Number(r.id), r as FileRow])),
    images: new Map(images.map((i) => [i.name, i as ImageRow])),
  };
}
type Files = Awaited<ReturnType<typeof filesOf>>;

/** A platform image's name from its address (`/api/v1/images/<name>`). */
export const imageNameOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

export async function toTemplate(
  ctx: AppContext,
  auth: AuthContext,
  row: TemplateRow,
  files: Files,
  locale: Locale,
): Promise<DhTemplate> {
  const urls = signedUrlsOf(ctx.storage, ctx.now);
  const resource = async (id: number | null): Promise<TemplateFile | null> => {
    const file = id === null ? undefined : files.resources.get(Number(id));
    if (!file) return null;
    return {
      resource_id: Number(file.id),
      image_url: null,
      name: file.name,
      url: await urls.url(file.storage_key),
      poster: file.type === 'video' && file.poster_key ? await urls.url(file.poster_key) : null,
    };
  };
  const image = (url: string | null): TemplateFile | null =>
    url === null
      ? null
      : {
          resource_id: null,
          image_url: url,
          name: files.images.get(imageNameOf(url))?.original_name ?? imageNameOf(url),
          url,
          poster: null,
        };
  const coverImage = (await resource(row.cover_resource_id)) ?? image(row.cover_url);
  const demo = await resource(row.demo_resource_id);
  return {
    id: Number(row.id),
    name: templateName(locale, row),
    scope: row.owner_id === null ? 'platform' : 'mine',
    builtin: row.key !== null,
    default: row.key === DEFAULT_TEMPLATE_KEY,
    editable: mayChange(auth, row),
    ratio: row.ratio as TemplateRatio,
    width: Number(row.width),
    height: Number(row.height),
    layout: JSON.parse(row.layout) as TemplateLayout,
    background_image: (await resource(row.background_resource_id)) ?? image(row.background_url),
    cover_image: coverImage,
    demo,
    music: await resource(row.music_resource_id),
    cover: coverImage?.url ?? demo?.poster ?? null,
    created_at: row.created_at === null ? null : Number(row.created_at),
  };
}
