import type { FastifyRequest } from 'fastify';
import {
  REACCEPT_KIND,
  type Agreement,
  type AgreementKind,
  type Article,
  type ArticleListParams,
} from '../../../src/api/contract/content';
import type { AppContext, AuthContext } from '../../context';
import { rowCount } from '../../platform/db/conditions';
import type { Executor } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { partnerOfDomain, PLATFORM_OWNER } from './domain-owner';
import {
  agreementOf,
  articleOf,
  findArticle,
  listArticles,
  versionInForce,
  type ArticleScope,
} from './repo';
import { checkImageUse, PLATFORM_IMAGE_OWNER } from '../uploads';
import { bodyImages, sanitiseRichText } from './sanitise';

/** The owner a writer writes as: the admin writes the platform's, a partner its own. */
const ownerOf = (auth: AuthContext): number =>
  auth.role === 'admin' ? PLATFORM_OWNER : auth.user.id;

/** The host a reader reads on: the `domain` it names, or the request's own `Host`. */
export const hostOf = (request: FastifyRequest, domain?: string): string =>
  domain || request.headers.host || '';

/**
 * What a caller sees (docs/domain.md "Articles and agreements"): a writer (admin, partner) every row of its own, drafts
 * included; a reader (merchant, agent) the published rows of the platform and of the partner
 * whose domain it reads on.
 */
async function scopeOf(ctx: AppContext, auth: AuthContext, host: string): Promise<ArticleScope> {
  if (auth.role === 'admin' || auth.role === 'partner') {
    return { owners: [ownerOf(auth)], publishedOnly: false };
  }
  return readerScope(ctx, host);
}

/** What anyone reads on a host: the published rows of the platform and of the host's partner. */
async function readerScope(ctx: AppContext, host: string): Promise<ArticleScope> {
  const partner = await partnerOfDomain(ctx.db, host);
  return { owners: [...new Set([PLATFORM_OWNER, partner])], publishedOnly: true };
}

export async function articleList(
  ctx: AppContext,
  auth: AuthContext,
  host: string,
  params: ArticleListParams,
) {
  return listArticles(ctx.db, await scopeOf(ctx, auth, host), params);
}

/**
 * The help centre's and the notices' list (docs/domain.md "Articles and agreements"): every
 * role reads as a reader here, the admin and partners included (their own list is the writer's).
 */
export async function publishedArticles(
  ctx: AppContext,
  host: string,
  params: Omit<ArticleListParams, 'status'>,
) {
  return listArticles(ctx.db, await readerScope(ctx, host), params);
}

export async function articleDetail(
  ctx: AppContext,
  auth: AuthContext,
  host: string,
  id: number,
): Promise<Article> {
  const row = await findArticle(ctx.db, await scopeOf(ctx, auth, host), id);
  if (!row) throw refuse('article.notFound');
  return articleOf(row);
}

interface ArticleInput {
  category: string;
  title: string;
  cover?: string | undefined;
  content: string;
  sort: number;
  status: string;
}

/** The stored form of an article's fields (the cover's form is the contract's), or the refusal. */
function storedFields(input: ArticleInput) {
  const content = sanitiseRichText(input.content);
  if (!content) throw refuse('article.contentEmpty');
  return {
    category: input.category,
    title: input.title,
    cover: input.cover ?? '',
    content,
    sort: input.sort,
    status: input.status,
  };
}

/**
 * The cover and the body's images must be content images of the writer's owner or the
 * platform's (docs/domain.md §8 "Platform images"): another partner's is refused as unknown.
 */
function checkImages(db: Executor, auth: AuthContext, cover: string, content: string) {
  const owners = [...new Set([ownerOf(auth), PLATFORM_IMAGE_OWNER])];
  return checkImageUse(
    db,
    [cover, ...bodyImages(content)],
    'content',
    owners,
    'article.imageNotYours',
  );
}

export async function addArticle(
  ctx: AppContext,
  auth: AuthContext,
  input: ArticleInput,
  audit: AuditTrail,
): Promise<Article> {
  const fields = storedFields(input);
  const now = ctx.now();
  const row = await runInTransaction(
    ctx.db,
    async (trx) => {
      await checkImages(trx, auth, fields.cover, fields.content);
      const inserted = await trx
        .insertInto('articles')
        .values({
          ...fields,
          owner_id: ownerOf(auth),
          created_by: auth.user.id,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      audit.change(null, fields);
      audit.target(Number(inserted.id));
      return inserted;
    },
    { audit },
  );
  return articleOf(row);
}

export async function editArticle(
  ctx: AppContext,
  auth: AuthContext,
  input: ArticleInput & { id: number },
  audit: AuditTrail,
): Promise<Article> {
  const fields = storedFields(input);
  const scope: ArticleScope = { owners: [ownerOf(auth)], publishedOnly: false };
  const row = await runInTransaction(
    ctx.db,
    async (trx) => {
      const before = await findArticle(trx, scope, input.id);
      if (!before) throw refuse('article.notFound');
      await checkImages(trx, auth, fields.cover, fields.content);
      const after = await trx
        .updateTable('articles')
        .set({ ...fields, updated_at: ctx.now() })
        .where('id', '=', before.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      audit.change(before, fields);
      return after;
    },
    { audit },
  );
  return articleOf(row);
}

export async function deleteArticle(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  audit: AuditTrail,
): Promise<void> {
  const scope: ArticleScope = { owners: [ownerOf(auth)], publishedOnly: false };
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const before = await findArticle(trx, scope, id);
      if (!before) throw refuse('article.notFound');
      await trx
        .updateTable('articles')
        .set({ deleted_at: ctx.now() })
        .where('id', '=', before.id)
        .execute();
      audit.change({ title: before.title, status: before.status }, null);
    },
    { audit },
  );
}

/** Versions, newest first: the admin's platform ones; a partner's own and the platform's. */
export async function agreementList(
  ctx: AppContext,
  auth: AuthContext,
  params: { kind?: AgreementKind | undefined; page: number; limit: number },
) {
  const owners = auth.role === 'admin' ? [PLATFORM_OWNER] : [PLATFORM_OWNER, auth.user.id];
  let query = ctx.db.selectFrom('agreements').where('owner_id', 'in', owners);
  if (params.kind) query = query.where('kind', '=', params.kind);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('kind')
      .orderBy('owner_id', 'desc')
      .orderBy('version', 'desc')
      .limit(rowCount(params.limit))
      .offset(rowCount((params.page - 1) * params.limit))
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(agreementOf), total: Number(count.n) };
}

/**
 * The version in force on a host (docs/domain.md "Articles and agreements"): the domain's partner's latest effective
 * version of the kind if it has one, else the platform's; null when neither has one yet.
 */
export async function agreementInForce(
  ctx: AppContext,
  kind: AgreementKind,
  host: string,
): Promise<Agreement | null> {
  const now = ctx.now();
  const partner = await partnerOfDomain(ctx.db, host);
  const own =
    partner === PLATFORM_OWNER ? undefined : await versionInForce(ctx.db, kind, partner, now);
  const row = own ?? (await versionInForce(ctx.db, kind, PLATFORM_OWNER, now));
  return row ? agreementOf(row) : null;
}

export async function saveAgreement(
  ctx: AppContext,
  auth: AuthContext,
  input: { kind: AgreementKind; content: string; effective_at: number },
  audit: AuditTrail,
): Promise<Agreement> {
  const content = sanitiseRichText(input.content);
  if (!content) throw refuse('article.contentEmpty');
  const owner = ownerOf(auth);
  const row = await runInTransaction(
    ctx.db,
    async (trx) => {
      await checkImages(trx, auth, '', content);
      const last = await trx
        .selectFrom('agreements')
        .select((eb) => eb.fn.max('version').as('v'))
        .where('kind', '=', input.kind)
        .where('owner_id', '=', owner)
        .executeTakeFirst();
      const version = Number(last?.v ?? 0) + 1;
      const inserted = await trx
        .insertInto('agreements')
        .values({
          kind: input.kind,
          owner_id: owner,
          version,
          content,
          effective_at: input.effective_at,
          created_by: auth.user.id,
          created_at: ctx.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      audit.change(null, {
        kind: input.kind,
        version,
        effective_at: input.effective_at,
        content,
      });
      audit.target(Number(inserted.id));
      return inserted;
    },
    { audit },
  );
  return agreementOf(row);
}

/**
 * The user agreement the caller must still accept on this host: the one in force when the caller
 * has no acceptance of it and its account is older than the version (docs/domain.md "Articles
 * and agreements"). Never for the admin (it writes them) nor for a
 * login-as session (acceptance is the person's own).
 */
export async function pendingAgreement(
  ctx: AppContext,
  auth: AuthContext,
  host: string,
): Promise<Agreement | null> {
  if (auth.role === 'admin' || auth.session.kind === 'overstep') return null;
  const current = await agreementInForce(ctx, REACCEPT_KIND, host);
  // An account made after the version took effect took it when it was made (sign-up's consent).
  if (!current || Number(auth.user.created_at) >= current.effective_at) return null;
  const accepted = await ctx.db
    .selectFrom('agreement_acceptances')
    .select('accepted_at')
    .where('user_id', '=', auth.user.id)
    .where('agreement_id', '=', current.id)
    .executeTakeFirst();
  return accepted ? null : current;
}

/** Records the caller's acceptance of the version in force on its host (once; again is a no-op). */
export async function acceptAgreement(
  ctx: AppContext,
  auth: AuthContext,
  host: string,
  input: { kind: AgreementKind; version: number },
  audit: AuditTrail,
) {
  const current = await agreementInForce(ctx, input.kind, host);
  if (!current) throw refuse('agreement.notFound');
  if (current.version !== input.version) throw refuse('agreement.notCurrent');
  const now = ctx.now();
  return runInTransaction(
    ctx.db,
    async (trx) => {
      const existing = await trx
        .selectFrom('agreement_acceptances')
        .select('accepted_at')
        .where('user_id', '=', auth.user.id)
        .where('agreement_id', '=', current.id)
        .executeTakeFirst();
      if (existing) {
        return {
          kind: input.kind,
          version: current.version,
          accepted_at: Number(existing.accepted_at),
        };
      }
      await trx
        .insertInto('agreement_acceptances')
        .values({ user_id: auth.user.id, agreement_id: current.id, accepted_at: now })
        .execute();
      audit.change(null, { kind: input.kind, version: current.version });
      audit.target(current.id);
      return { kind: input.kind, version: current.version, accepted_at: now };
    },
    { audit },
  );
}
