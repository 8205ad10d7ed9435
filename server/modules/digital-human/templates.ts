import type { Locale } from '../../../src/api/contract/messages';
import type {
  DhTemplate,
  DhTemplateList,
  TemplateLayout,
  TemplateRatio,
} from '../../../src/api/contract/digital-human';
import type { AppContext } from '../../context';
import type { DhTemplatesTable, Executor } from '../../platform/db/schema';
import { isMessageId, t } from '../../platform/i18n';
import { signedUrlsOf } from '../resources';
import type { Selectable } from 'kysely';

export type TemplateRow = Selectable<DhTemplatesTable>;

/** The template a video without one uses: the portrait frame (9:16, 720×1280). */
export const DEFAULT_TEMPLATE_KEY = 'portrait';

export async function findTemplate(db: Executor, id: number): Promise<TemplateRow | undefined> {
  return db.selectFrom('dh_templates').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The template of a video: its own, or the default (portrait) one when it has none. */
export async function templateOf(db: Executor, id: number | null): Promise<TemplateRow> {
  const own = id === null ? undefined : await findTemplate(db, id);
  if (own) return own;
  return db
    .selectFrom('dh_templates')
    .selectAll()
    .where('key', '=', DEFAULT_TEMPLATE_KEY)
    .executeTakeFirstOrThrow();
}

export function templateName(locale: Locale, key: string): string {
  const id = `dhTemplate.${key}`;
  return isMessageId(id) ? t(locale, id) : key;
}

/** GET /digital_human/template_list: every template, names in the caller's language. */
export async function templateList(ctx: AppContext, locale: Locale): Promise<DhTemplateList> {
  const rows = await ctx.db
    .selectFrom('dh_templates')
    .selectAll()
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const urls = signedUrlsOf(ctx.storage, ctx.now);
  const list = await Promise.all(
    rows.map(async (row): Promise<DhTemplate> => ({
      id: Number(row.id),
      name: templateName(locale, row.key),
      ratio: row.ratio as TemplateRatio,
      width: Number(row.width),
      height: Number(row.height),
      layout: JSON.parse(row.layout) as TemplateLayout,
      cover: row.cover_key ? await urls.url(row.cover_key) : null,
    })),
  );
  return { list };
}
