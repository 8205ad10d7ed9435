import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ResourceListParams } from '../../../src/api/contract/resources';
import { allOf, rowCount, type Condition } from '../../platform/db/conditions';
import { readPage, type PageStart } from '../../platform/db/list-cache';
import type { Executor, ResourcesTable } from '../../platform/db/schema';
import type { Selectable } from 'kysely';
import { listOwnerGroups } from '../../platform/db/owner-groups';

/**
 * SQL of the resource library (docs/domain.md §8). Every query names its owner: a
 * resource or group of another user is never read, so it answers like a missing one.
 */

export type ResourceRow = Selectable<ResourcesTable>;

/**
 * The largest value of an `integer` column on PostgreSQL (`group_id`, `owner_id`). A larger
 * number sent as a group id can name no group; compared with the column it would be an error
 * (22003) instead of "no such group".
 */
export const MAX_INT4 = 2_147_483_647;

/** The library's filters as the list query takes them (the page aside). */
export type ResourceFilter = Omit<ResourceListParams, 'page' | 'limit'>;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** Live resources of `ownerId` that match the filter (as `r`). */
function listConditions(ownerId: number, filter: ResourceFilter): Condition[] {
  const out: Condition[] = [
    sql<SqlBool>`r.owner_id = ${ownerId}`,
    sql<SqlBool>`r.deleted_at is null`,
  ];
  if (filter.type) out.push(sql<SqlBool>`r.type = ${filter.type}`);
  if (filter.types) out.push(sql<SqlBool>`r.type in (${sql.join(filter.types)})`);
  if (filter.group_id === 0) out.push(sql<SqlBool>`r.group_id is null`);
  else if (filter.group_id !== undefined) {
    out.push(
      filter.group_id > MAX_INT4 ? sql<SqlBool>`1 = 0` : sql`r.group_id = ${filter.group_id}`,
    );
  }
  if (filter.keyword) {
    // lower() on both sides: LIKE is case-sensitive on PostgreSQL and not on SQLite; `%` and `_`
    // in the keyword are literal.
    const pattern = `%${escapeLike(filter.keyword.toLowerCase())}%`;
    out.push(sql<SqlBool>`lower(r.name) like ${pattern} escape '\\'`);
  }
  return out;
}

const matching = (db: Executor, conditions: Condition[]) =>
  db.selectFrom('resources as r').where(allOf(conditions));

const COLUMNS = sql.raw(
  'r.id, r.owner_id, r.group_id, r.type, r.name, r.upload_id, r.storage_key, r.poster_key, ' +
    'r.content_type, r.size, r.duration_ms, r.width, r.height, r.codec, r.created_at, ' +
    'r.updated_at, r.deleted_at, r.file_deleted_at',
);

/** Rows that meet every condition, newest first, then `tail` (limit, offset). */
function resourceRows(conditions: Condition[], tail: RawBuilder<unknown>) {
  return sql<ResourceRow>`select ${COLUMNS} from resources r where ${allOf(conditions)} order by r.id desc ${tail}`;
}

/**
 * One page of the owner's live resources that match the filter, newest first. The total and deep
 * pages' anchors go through the list cache (db/list-cache.ts), so a page of a 100 000-resource
 * library does not count them all on every request.
 */
export async function listResources(
  db: Executor,
  ownerId: number,
  filter: ResourceFilter,
  page: { page: number; limit: number },
  now: number,
): Promise<{ rows: ResourceRow[]; total: number }> {
  const conditions = () => listConditions(ownerId, filter);
  const types = filter.types ? [...new Set(filter.types)].sort() : undefined;
  const key = `resources ${ownerId} ${JSON.stringify([filter.type, types, filter.group_id, filter.keyword])}`;
  return readPage(db, {
    key,
    filtered: () => matching(db, conditions()),
    now,
    offset: (page.page - 1) * page.limit,
    keyAt: async (offset) => {
      const row = await matching(db, conditions())
        .select('r.id')
        .orderBy('r.id', 'desc')
        .limit(rowCount(1))
        .offset(rowCount(offset))
        .executeTakeFirst();
      return row && Number(row.id);
    },
    rows: (start: PageStart) => {
      const where = conditions();
      if (start.from !== undefined) where.push(sql<SqlBool>`r.id <= ${start.from}`);
      return resourceRows(where, sql`limit ${rowCount(page.limit)} offset ${rowCount(start.skip)}`)
        .execute(db)
        .then((r) => r.rows);
    },
    // A keyword reads every name of the library to find its matches: found once per state of
    // the resources (db/list-cache.ts `keys`), then each page reads only its own rows.
    byKeys: filter.keyword
      ? {
          limit: page.limit,
          find: async (max) => {
            const found = await matching(db, conditions())
              .select('r.id')
              .orderBy('r.id', 'desc')
              .limit(rowCount(max))
              .execute();
            return found.map((r) => Number(r.id));
          },
          rows: (keys) =>
            resourceRows(
              [...conditions(), sql<SqlBool>`r.id in (${sql.join(keys)})`],
              sql`limit ${rowCount(keys.length)}`,
            )
              .execute(db)
              .then((r) => r.rows),
        }
      : undefined,
    count: async () => {
      const row = await matching(db, conditions())
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { total: Number(row.n) };
    },
  });
}

/** The owner's live resource `id`, or undefined (missing, deleted or another user's). */
export async function findResource(
  db: Executor,
  ownerId: number,
  id: number,
): Promise<ResourceRow | undefined> {
  const { rows } = await resourceRows(
    [sql<SqlBool>`r.id = ${id}`, sql<SqlBool>`r.owner_id = ${ownerId}`, sql`r.deleted_at is null`],
    sql`limit 1`,
  ).execute(db);
  return rows[0];
}

/** The owner's group `id` (undefined: missing or another user's). */
export async function findGroup(db: Executor, ownerId: number, id: number) {
  if (id > MAX_INT4) return undefined;
  return db
    .selectFrom('resource_groups')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

/** The owner's groups with their live resources' counts, and the ungrouped count. */
export const listGroups = (db: Executor, ownerId: number) =>
  listOwnerGroups(db, { groups: 'resource_groups', members: 'resources' }, ownerId);

/** Live resources in the owner's group `groupId`. */
export async function countInGroup(db: Executor, ownerId: number, groupId: number) {
  const row = await db
    .selectFrom('resources')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('group_id', '=', groupId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
