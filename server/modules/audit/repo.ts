import { sql, type SqlBool } from 'kysely';
import type { AuditFilter, AuditListParams, AuditRow } from '../../../src/api/contract/audit';
import type { Role } from '../../../src/api/contract/roles';
import { rowCount } from '../../platform/db/conditions';
import { readPage } from '../../platform/db/list-cache';
import type { Executor } from '../../platform/db/schema';
import { detailForReading, diffForReading } from '../../platform/http/audit-diff';

/** Who reads the log: the admin every row, a partner the rows of its subtree. */
export interface AuditViewer {
  role: Role;
  id: number;
}

const parse = <T>(text: string | null, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/**
 * The rows of the log the viewer may read that the filters select (docs/domain.md "The audit log
 * viewer"). A partner's rows: those whose actor, or whose `user` resource, belongs to its subtree
 * (users whose service_id is the partner's id, itself included; docs/architecture.md §Audit). A
 * resource id matches a row that changed exactly that resource or a batch that included it.
 */
function filtered(db: Executor, viewer: AuditViewer, query: AuditFilter) {
  let q = db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .leftJoin('users as o', 'o.id', 'a.original_actor_id');
  if (viewer.role !== 'admin') {
    const subtree = db.selectFrom('users').select('id').where('service_id', '=', viewer.id);
    q = q.where((eb) =>
      eb.or([
        eb('a.actor_id', 'in', subtree),
        eb.and([eb('a.target_type', '=', 'user'), eb('a.target_id', 'in', subtree)]),
      ]),
    );
  }
  if (query.actor !== undefined) {
    // An id or a username; digits match either (a username may be all digits).
    const actor = query.actor;
    q = /^\d{1,15}$/.test(actor)
      ? q.where((eb) => eb.or([eb('a.actor_id', '=', Number(actor)), eb('u.username', '=', actor)]))
      : q.where('u.username', '=', actor);
  }
  if (query.action !== undefined) q = q.where('a.action', '=', query.action);
  if (query.resource_type !== undefined) q = q.where('a.target_type', '=', query.resource_type);
  if (query.resource_id !== undefined) {
    // target_ids is a JSON array of integers: `[3,14]` → `,3,14,` holds `,14,`.
    const id = query.resource_id;
    q = q.where((eb) =>
      eb.or([
        eb('a.target_id', '=', id),
        sql<SqlBool>`replace(replace(a.target_ids, '[', ','), ']', ',') like ${`%,${id},%`}`,
      ]),
    );
  }
  if (query.from !== undefined) q = q.where('a.created_at', '>=', query.from);
  if (query.to !== undefined) q = q.where('a.created_at', '<=', query.to);
  return q;
}

type Filtered = ReturnType<typeof filtered>;

const selectRow = (q: Filtered) =>
  q.select([
    'a.id',
    'a.created_at',
    'a.actor_id',
    'u.username as actor_username',
    'a.actor_role',
    'a.original_actor_id',
    'o.username as original_actor_username',
    'a.action',
    'a.target_type',
    'a.target_id',
    'a.target_ids',
    'a.diff',
    'a.detail',
    'a.ip',
    'a.user_agent',
    'a.request_id',
    'a.result',
    'a.error_code',
  ]);

type StoredRow = Awaited<ReturnType<ReturnType<typeof selectRow>['execute']>>[number];

/** A stored row as a reader sees it: secrets only "changed", whatever the row holds. */
function rowOf(row: StoredRow): AuditRow {
  const ids = parse<number[]>(row.target_ids, []);
  return {
    id: Number(row.id),
    created_at: Number(row.created_at),
    actor_id: row.actor_id === null ? null : Number(row.actor_id),
    actor_username: row.actor_username ?? null,
    actor_role: (row.actor_role as Role | null) ?? null,
    original_actor_id: row.original_actor_id === null ? null : Number(row.original_actor_id),
    original_actor_username: row.original_actor_username ?? null,
    action: row.action,
    resource_type: row.target_type,
    resource_id: row.target_id === null ? null : Number(row.target_id),
    // Rows written before target_ids existed name their one resource in target_id.
    resource_ids:
      Array.isArray(ids) && ids.length === 0 && row.target_id !== null
        ? [Number(row.target_id)]
        : Array.isArray(ids)
          ? ids.map(Number)
          : [],
    diff: diffForReading(row.action, parse<unknown>(row.diff, {})),
    detail: detailForReading(parse<unknown>(row.detail, {})),
    ip: row.ip,
    user_agent: row.user_agent,
    request_id: row.request_id,
    result: row.result,
    error_code: row.error_code,
  };
}

/** One page of the audit log the viewer may read, newest first. */
export async function listAudit(db: Executor, viewer: AuditViewer, query: AuditListParams) {
  const { page, limit, ...conditions } = query;
  const q = filtered(db, viewer, conditions);
  const { rows, total } = await readPage(db, {
    key: `audit ${viewer.role} ${viewer.id} ${JSON.stringify(conditions)}`,
    filtered: () => q,
    now: Date.now(), // nothing here depends on the time: only the cache's own clock
    offset: (page - 1) * limit,
    keyAt: async (offset) => {
      const row = await q
        .select('a.id')
        .orderBy('a.id', 'desc')
        .limit(rowCount(1))
        .offset(rowCount(offset))
        .executeTakeFirst();
      return row && Number(row.id);
    },
    rows: (start) =>
      selectRow(q)
        .$if(start.from !== undefined, (qb) => qb.where('a.id', '<=', start.from!))
        .orderBy('a.id', 'desc')
        .limit(rowCount(limit))
        .offset(rowCount(start.skip))
        .execute(),
    count: async () => {
      const count = await q
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { total: Number(count.n) };
    },
  });
  const list = rows.map(rowOf);
  return { list, total };
}

/** How many rows an export reads at a time (one page in memory, however many rows). */
export const EXPORT_PAGE = 500;

/**
 * Every row the filters select in the viewer's scope, newest first, a page at a time (keyset on
 * the id, so a row written meanwhile neither repeats nor shifts a page).
 */
export async function* exportAudit(
  db: Executor,
  viewer: AuditViewer,
  query: AuditFilter,
): AsyncGenerator<AuditRow[]> {
  const q = filtered(db, viewer, query);
  let below: number | undefined;
  for (;;) {
    const rows = await selectRow(q)
      .$if(below !== undefined, (qb) => qb.where('a.id', '<', below!))
      .orderBy('a.id', 'desc')
      .limit(rowCount(EXPORT_PAGE))
      .execute();
    if (rows.length === 0) return;
    yield rows.map(rowOf);
    if (rows.length < EXPORT_PAGE) return;
    below = Number(rows[rows.length - 1].id);
  }
}
