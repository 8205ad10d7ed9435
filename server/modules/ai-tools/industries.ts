import { sql } from 'kysely';
import type {
  Industry,
  IndustryTree,
  Script,
  ScriptKind,
  ScriptListParams,
  ScriptPage,
} from '../../../src/api/contract/ai-tools';
import type { AppContext } from '../../context';
import { likePattern } from '../../platform/db/conditions';
import { isUniqueViolation } from '../../platform/db/errors';
import type { Executor } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';

/**
 * Industries (two levels) and their scripts (docs/domain.md §23): the admin manages them; admin,
 * partners and merchants read them (the creation and plan pickers).
 */

async function findIndustry(db: Executor, id: number) {
  return db.selectFrom('industries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** GET /platform/industry: the top-level industries with their sub-industries, by sort then id. */
export async function industryTree(ctx: AppContext): Promise<IndustryTree> {
  const rows = await ctx.db
    .selectFrom('industries')
    .select(['id', 'parent_id', 'name', 'sort'])
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const top: Industry[] = [];
  const byId = new Map<number, Industry>();
  for (const row of rows) {
    if (Number(row.parent_id) !== 0) continue;
    const node = { id: Number(row.id), name: row.name, sort: row.sort, parent_id: 0, children: [] };
    top.push(node);
    byId.set(node.id, node);
  }
  for (const row of rows) {
    const parent = byId.get(Number(row.parent_id));
    parent?.children.push({
      id: Number(row.id),
      name: row.name,
      sort: row.sort,
      parent_id: parent.id,
      children: [],
    });
  }
  return { list: top, total: top.length };
}

/** POST /industry/add: a top-level industry, or a sub-industry of a top-level one. */
export async function addIndustry(
  ctx: AppContext,
  body: { name: string; parent_id: number; sort: number },
  audit: AuditTrail,
): Promise<Industry> {
  if (body.parent_id !== 0) {
    const parent = await findIndustry(ctx.db, body.parent_id);
    if (!parent) throw refuse('industry.parentNotFound');
    if (Number(parent.parent_id) !== 0) throw refuse('industry.tooDeep');
  }
  audit.change(null, { name: body.name, parent_id: body.parent_id, sort: body.sort });
  const now = ctx.now();
  try {
    const row = await runInTransaction(
      ctx.db,
      (trx) =>
        trx
          .insertInto('industries')
          .values({ ...body, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow(),
      { audit },
    );
    return { id: Number(row.id), ...body, children: [] };
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('industry.nameTaken', { name: body.name });
    throw error;
  }
}

/** POST /industry/edit: its name and sort (an industry stays at its level). */
export async function editIndustry(
  ctx: AppContext,
  body: { id: number; name: string; sort: number },
  audit: AuditTrail,
): Promise<Industry> {
  const before = await findIndustry(ctx.db, body.id);
  if (!before) throw refuse('industry.notFound');
  audit.change({ name: before.name, sort: before.sort }, { name: body.name, sort: body.sort });
  try {
    await runInTransaction(
      ctx.db,
      async (trx) => {
        const result = await trx
          .updateTable('industries')
          .set({ name: body.name, sort: body.sort, updated_at: ctx.now() })
          .where('id', '=', body.id)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw refuse('industry.notFound');
      },
      { audit },
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('industry.nameTaken', { name: body.name });
    throw error;
  }
  return { ...body, parent_id: Number(before.parent_id), children: [] };
}

/** POST /industry/delete: only an industry without sub-industries and without scripts. */
export async function deleteIndustry(
  ctx: AppContext,
  body: { id: number },
  audit: AuditTrail,
): Promise<null> {
  const before = await findIndustry(ctx.db, body.id);
  if (!before) throw refuse('industry.notFound');
  audit.change({ name: before.name, parent_id: Number(before.parent_id), sort: before.sort }, null);
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const child = await trx
        .selectFrom('industries')
        .select('id')
        .where('parent_id', '=', body.id)
        .executeTakeFirst();
      if (child) throw refuse('industry.hasChildren');
      const script = await trx
        .selectFrom('scripts')
        .select('id')
        .where('industry_id', '=', body.id)
        .executeTakeFirst();
      if (script) throw refuse('industry.hasScripts');
      const deleted = await trx
        .deleteFrom('industries')
        .where('id', '=', body.id)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) throw refuse('industry.notFound');
    },
    { audit },
  );
  return null;
}

// ---- Scripts ----

const scriptColumns = [
  's.id',
  's.industry_id',
  'i.name as industry_name',
  's.kind',
  's.content',
  's.created_at',
  's.updated_at',
] as const;

function toScript(row: {
  id: number;
  industry_id: number;
  industry_name: string;
  kind: string;
  content: string;
  created_at: number;
  updated_at: number;
}): Script {
  return {
    id: Number(row.id),
    industry_id: Number(row.industry_id),
    industry_name: row.industry_name,
    kind: row.kind as ScriptKind,
    content: row.content,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

async function findScript(db: Executor, id: number): Promise<Script | null> {
  const row = await db
    .selectFrom('scripts as s')
    .innerJoin('industries as i', 'i.id', 's.industry_id')
    .select(scriptColumns)
    .where('s.id', '=', id)
    .executeTakeFirst();
  return row ? toScript(row) : null;
}

/**
 * GET /platform/script: newest first; `industry_id` of a top-level industry takes its
 * sub-industries' scripts too; `keyword` matches the content.
 */
export async function listScripts(ctx: AppContext, query: ScriptListParams): Promise<ScriptPage> {
  let base = ctx.db
    .selectFrom('scripts as s')
    .innerJoin('industries as i', 'i.id', 's.industry_id');
  if (query.industry_id !== undefined) {
    const industryId = query.industry_id;
    base = base.where((eb) =>
      eb.or([eb('s.industry_id', '=', industryId), eb('i.parent_id', '=', industryId)]),
    );
  }
  if (query.kind) base = base.where('s.kind', '=', query.kind);
  if (query.keyword) {
    base = base.where(
      sql<boolean>`lower(s.content) like ${likePattern(query.keyword)} escape '\\'`,
    );
  }
  const [rows, count] = await Promise.all([
    base
      .select(scriptColumns)
      .orderBy('s.id', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toScript), total: Number(count.n) };
}

interface ScriptFields {
  industry_id: number;
  kind: ScriptKind;
  content: string;
}

async function checkIndustry(db: Executor, id: number): Promise<void> {
  if (!(await findIndustry(db, id))) throw refuse('industry.notFound');
}

/** POST /script/add */
export async function addScript(
  ctx: AppContext,
  body: ScriptFields,
  audit: AuditTrail,
): Promise<Script> {
  await checkIndustry(ctx.db, body.industry_id);
  audit.change(null, { ...body });
  const now = ctx.now();
  const row = await runInTransaction(
    ctx.db,
    (trx) =>
      trx
        .insertInto('scripts')
        .values({ ...body, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow(),
    { audit },
  );
  return (await findScript(ctx.db, Number(row.id)))!;
}

/** POST /script/edit */
export async function editScript(
  ctx: AppContext,
  body: ScriptFields & { id: number },
  audit: AuditTrail,
): Promise<Script> {
  const before = await findScript(ctx.db, body.id);
  if (!before) throw refuse('script.notFound');
  await checkIndustry(ctx.db, body.industry_id);
  const { id, ...after } = body;
  audit.change(
    { industry_id: before.industry_id, kind: before.kind, content: before.content },
    { ...after },
  );
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const result = await trx
        .updateTable('scripts')
        .set({ ...after, updated_at: ctx.now() })
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw refuse('script.notFound');
    },
    { audit },
  );
  return (await findScript(ctx.db, id))!;
}

/** POST /script/delete */
export async function deleteScript(
  ctx: AppContext,
  body: { id: number },
  audit: AuditTrail,
): Promise<null> {
  const before = await findScript(ctx.db, body.id);
  if (!before) throw refuse('script.notFound');
  audit.change(
    { industry_id: before.industry_id, kind: before.kind, content: before.content },
    null,
  );
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const deleted = await trx.deleteFrom('scripts').where('id', '=', body.id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) throw refuse('script.notFound');
    },
    { audit },
  );
  return null;
}
