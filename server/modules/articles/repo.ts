import { sql, type Selectable, type SqlBool } from 'kysely';
import type {
  Agreement,
  AgreementKind,
  Article,
  ArticleCategory,
  ArticleListParams,
  ArticleStatus,
} from '../../../src/api/contract/content';
import { likePattern, rowCount } from '../../platform/db/conditions';
import type { AgreementsTable, ArticlesTable, Executor } from '../../platform/db/schema';

/** The owners whose articles a viewer sees, and whether drafts are among them. */
export interface ArticleScope {
  owners: readonly number[];
  publishedOnly: boolean;
}

export function articleOf(row: Selectable<ArticlesTable>): Article {
  return {
    id: Number(row.id),
    owner_id: Number(row.owner_id) || null,
    category: row.category as ArticleCategory,
    title: row.title,
    cover: row.cover,
    content: row.content,
    sort: Number(row.sort),
    status: row.status as ArticleStatus,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

export function agreementOf(row: Selectable<AgreementsTable>): Agreement {
  return {
    id: Number(row.id),
    kind: row.kind as AgreementKind,
    owner_id: Number(row.owner_id) || null,
    version: Number(row.version),
    content: row.content,
    effective_at: Number(row.effective_at),
    created_at: Number(row.created_at),
  };
}

function scoped(db: Executor, scope: ArticleScope) {
  let query = db
    .selectFrom('articles')
    .where('deleted_at', 'is', null)
    .where('owner_id', 'in', [...scope.owners]);
  if (scope.publishedOnly) query = query.where('status', '=', 'published');
  return query;
}

export async function listArticles(
  db: Executor,
  scope: ArticleScope,
  params: ArticleListParams,
): Promise<{ list: Article[]; total: number }> {
  let query = scoped(db, scope);
  if (params.category) query = query.where('category', '=', params.category);
  if (params.status) query = query.where('status', '=', params.status);
  if (params.keyword) {
    const pattern = likePattern(params.keyword);
    query = query.where(sql<SqlBool>`lower(title) like ${pattern} escape '\\'`);
  }
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('sort', 'desc')
      .orderBy('id', 'desc')
      .limit(rowCount(params.limit))
      .offset(rowCount((params.page - 1) * params.limit))
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(articleOf), total: Number(count.n) };
}

export function findArticle(db: Executor, scope: ArticleScope, id: number) {
  return scoped(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
}

/** The latest version of a kind of an owner effective at `now` (none: undefined). */
export function versionInForce(db: Executor, kind: AgreementKind, owner: number, now: number) {
  return db
    .selectFrom('agreements')
    .selectAll()
    .where('kind', '=', kind)
    .where('owner_id', '=', owner)
    .where('effective_at', '<=', now)
    .orderBy('version', 'desc')
    .limit(rowCount(1))
    .executeTakeFirst();
}
