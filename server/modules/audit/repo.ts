import { sql, type SqlBool } from 'kysely';
import type { AuditListParams, AuditRow } from '../../../src/api/contract/audit';
import type { Role } from '../../../src/api/contract/roles';
import { rowCount } from '../../platform/db/conditions';
import { readPage } from '../../platform/db/list-cache';
import type { Executor } from '../../platform/db/schema';

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
 * One page of the audit log, newest first. A partner's rows: those whose actor, or whose `user`
 * resource, belongs to its subtree (users whose service_id is the partner's id, itself included;
 * docs/architecture.md §Audit). A resource id matches a row that changed exactly that resource
 * or a batch that included it.
 */
export async function listAudit(db: Executor, viewer: AuditViewer, query: AuditListParams) {
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
  if (query.actor !== undefined) q = q.where('a.actor_id', '=', query.actor);
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

  const { page, limit, ...conditions } = query;
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
      q
        .select([
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
        ])
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
  const list = rows.map((row): AuditRow => {
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
      resource_ids: ids.length === 0 && row.target_id !== null ? [Number(row.target_id)] : ids,
      diff: parse<AuditRow['diff']>(row.diff, {}),
      detail: parse<AuditRow['detail']>(row.detail, {}),
      ip: row.ip,
      user_agent: row.user_agent,
      request_id: row.request_id,
      result: row.result,
      error_code: row.error_code,
    };
  });
  return { list, total };
}
