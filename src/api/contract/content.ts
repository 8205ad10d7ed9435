import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { pageQuery } from './money';
import { isPlatformImageUrl } from './platform-image-rules';
import { displayName, multilineText, text } from './text';

/**
 * Articles and agreements (docs/domain.md "Articles and agreements"). Bodies are rich text:
 * the server sanitises them on save (docs/architecture.md "Rich text") and every reply carries
 * the stored, sanitised HTML. Times are epoch milliseconds.
 * - `GET /article/list {category?, status?, keyword?, page, limit}` → `{list, total}`;
 * - `GET /article/published {category?, keyword?, page, limit}` → `{list, total}`: what every
 *   signed-in role reads on its host (the help centre, the notices), published rows only;
 * - `GET /article/detail {id}`; `POST /article/add`, `POST /article/edit {id, …}`,
 *   `POST /article/delete {id}`;
 * - `GET /agreement/list {kind?}` → `{list, total}` (versions, newest first);
 * - `GET /agreement/detail {kind, domain?}` → the version in force for that domain;
 * - `POST /agreement/save {kind, content, effective_at}` → a new version;
 * - `POST /agreement/accept {kind, version}` → the caller's acceptance;
 * - `GET /agreement/pending` → the user-agreement version the caller must still accept, or null.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

export const ARTICLE_CATEGORIES = ['notice', 'help', 'tutorial'] as const;
export type ArticleCategory = (typeof ARTICLE_CATEGORIES)[number];
export const ARTICLE_STATUSES = ['draft', 'published'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

export const AGREEMENT_KINDS = ['user', 'privacy', 'clone_consent', 'recharge'] as const;
export type AgreementKind = (typeof AGREEMENT_KINDS)[number];
/** The kind a new version of which asks every signed-in user to accept it again. */
export const REACCEPT_KIND: AgreementKind = 'user';

export const MAX_ARTICLE_TITLE = 60;
/** Characters of a body as sent (before sanitising). */
export const MAX_BODY_CHARS = 200_000;
export const MAX_ARTICLE_SORT = 9999;

const idOf = (message: ValidationMessageId) =>
  z.coerce
    .number(msg(message))
    .int(msg(message))
    .min(1, msg(message))
    .max(Number.MAX_SAFE_INTEGER, msg(message));
const articleId = idOf('validation.articleId');
const category = z.enum(ARTICLE_CATEGORIES, msg('validation.articleCategory'));
const status = z.enum(ARTICLE_STATUSES, msg('validation.articleStatus'));
const kind = z.enum(AGREEMENT_KINDS, msg('validation.agreementKind'));
const body = multilineText('validation.articleContent')
  .min(1, msg('validation.articleContent'))
  .max(MAX_BODY_CHARS, msg('validation.articleContent'));
const title = displayName({ max: MAX_ARTICLE_TITLE, message: 'validation.articleTitle' });
const sort = z.coerce
  .number(msg('validation.articleSort'))
  .int(msg('validation.articleSort'))
  .min(0, msg('validation.articleSort'))
  .max(MAX_ARTICLE_SORT, msg('validation.articleSort'));
/**
 * A cover: '' for none, or the address of an image uploaded for content
 * (`POST /upload/platform_image`); the server checks that the writer may use it.
 */
const cover = text('validation.articleCover')
  .trim()
  .check(
    z.refine((s) => s === '' || isPlatformImageUrl(s, 'content'), msg('validation.articleCover')),
  );
/** A host name (no scheme, path or port), as the console's address bar has it. */
const domain = text('validation.agreementDomain')
  .trim()
  .toLowerCase()
  .max(253, msg('validation.agreementDomain'))
  .regex(/^[a-z0-9.-]*$/, msg('validation.agreementDomain'));

export const articleListQuery = z.strictObject({
  ...pageQuery,
  category: z.preprocess((v) => (v === '' ? undefined : v), category.optional()),
  status: z.preprocess((v) => (v === '' ? undefined : v), status.optional()),
  keyword: text().trim().max(60, msg('validation.invalid')).optional(),
});
/** What the console sends (the schema's input is loose: query strings). */
export interface ArticleListQuery {
  page?: number;
  limit?: number;
  category?: ArticleCategory;
  status?: ArticleStatus;
  keyword?: string;
}
export type ArticleListParams = z.output<typeof articleListQuery>;
/** A reader's list: published rows only, so no status to ask for. */
export const articlePublishedQuery = articleListQuery.omit({ status: true });
export type ArticlePublishedQuery = Omit<ArticleListQuery, 'status'>;

export const articleDetailQuery = z.strictObject({ id: articleId });

const articleFields = {
  category,
  title,
  cover: cover.optional(),
  content: body,
  sort: sort.default(0),
  status,
};
export const articleAddBody = z.strictObject(articleFields);
export type ArticleAddBody = z.input<typeof articleAddBody>;
export const articleEditBody = z.strictObject({ id: articleId, ...articleFields });
export type ArticleEditBody = z.input<typeof articleEditBody>;
export const articleDeleteBody = z.strictObject({ id: articleId });

export const articleSchema = z.object({
  id: z.number(),
  /** null: the platform's; else the partner whose override it is. */
  owner_id: z.number().nullable(),
  category: z.enum(ARTICLE_CATEGORIES),
  title: z.string(),
  cover: z.string(),
  /** The stored, sanitised HTML. */
  content: z.string(),
  sort: z.number(),
  status: z.enum(ARTICLE_STATUSES),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Article = z.infer<typeof articleSchema>;
export const articlePageSchema = z.object({ list: z.array(articleSchema), total: z.number() });
export type ArticlePage = z.infer<typeof articlePageSchema>;

export const agreementListQuery = z.strictObject({
  ...pageQuery,
  kind: z.preprocess((v) => (v === '' ? undefined : v), kind.optional()),
});
export interface AgreementListQuery {
  page?: number;
  limit?: number;
  kind?: AgreementKind;
}
export const agreementDetailQuery = z.strictObject({ kind, domain: domain.optional() });
export type AgreementDetailQuery = z.input<typeof agreementDetailQuery>;
export const agreementSaveBody = z.strictObject({
  kind,
  content: body,
  effective_at: z.coerce
    .number(msg('validation.effectiveAt'))
    .int(msg('validation.effectiveAt'))
    .min(0, msg('validation.effectiveAt'))
    .max(8_640_000_000_000_000, msg('validation.effectiveAt')),
});
export type AgreementSaveBody = z.input<typeof agreementSaveBody>;
export const agreementAcceptBody = z.strictObject({
  kind,
  version: idOf('validation.agreementVersion'),
});
export type AgreementAcceptBody = z.input<typeof agreementAcceptBody>;

export const agreementSchema = z.object({
  id: z.number(),
  kind: z.enum(AGREEMENT_KINDS),
  /** null: the platform's; else the partner whose override it is. */
  owner_id: z.number().nullable(),
  /** 1, 2, … per kind and owner. */
  version: z.number(),
  /** The stored, sanitised HTML. */
  content: z.string(),
  effective_at: z.number(),
  created_at: z.number(),
});
export type Agreement = z.infer<typeof agreementSchema>;
export const agreementPageSchema = z.object({ list: z.array(agreementSchema), total: z.number() });
export type AgreementPage = z.infer<typeof agreementPageSchema>;
/** The version in force, or null when none is (no version yet, or none effective yet). */
export const agreementDetailSchema = agreementSchema.nullable();
/** The user agreement the caller has still to accept (a new version since its last), or null. */
export const agreementPendingSchema = agreementSchema.nullable();
export const agreementAcceptReplySchema = z.object({
  kind: z.enum(AGREEMENT_KINDS),
  version: z.number(),
  accepted_at: z.number(),
});
