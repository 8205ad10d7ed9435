import { sql, type SqlBool } from 'kysely';
import type { Domain, DomainListFilter, Flag01 } from '../../../src/api/contract/domains';
import { likePattern, rowCount } from '../../platform/db/conditions';
import type { DomainRow, Executor } from '../../platform/db/schema';

type Row = DomainRow & { owner_username: string | null; owner_real_name: string | null };

const flag = (v: unknown) => (Number(v) === 1 ? 1 : 0) as Flag01;

export function toDomain(row: Row): Domain {
  return {
    id: Number(row.id),
    hostname: row.hostname,
    owner_id: row.owner_id === null ? null : Number(row.owner_id),
    owner_name: row.owner_id === null ? null : row.owner_real_name || row.owner_username || '',
    name: row.name,
    logo: row.logo,
    favicon: row.favicon,
    copyright: row.copyright,
    icp_record_number: row.icp_record_number,
    police_record: flag(row.police_record),
    police_record_number: row.police_record_number,
    money_name: row.money_name,
    theme_color: row.theme_color,
    dy_auth_publish_show: flag(row.dy_auth_publish_show),
    expirence_money_show: flag(row.expirence_money_show),
    saler_show: flag(row.saler_show),
    status: flag(row.status),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

function withOwner(db: Executor) {
  return db
    .selectFrom('domains')
    .leftJoin('users as owner', 'owner.id', 'domains.owner_id')
    .selectAll('domains')
    .select(['owner.username as owner_username', 'owner.name as owner_real_name']);
}

export async function findDomain(db: Executor, id: number): Promise<Domain | undefined> {
  const row = await withOwner(db).where('domains.id', '=', id).executeTakeFirst();
  return row && toDomain(row);
}

export function findDomainRow(db: Executor, id: number): Promise<DomainRow | undefined> {
  return db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function hostnameTaken(
  db: Executor,
  hostname: string,
  exceptId?: number,
): Promise<boolean> {
  let q = db.selectFrom('domains').select('id').where('hostname', '=', hostname);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return !!(await q.limit(rowCount(1)).executeTakeFirst());
}

/** A live partner (user_type 1, not deleted): the only users a domain may belong to. */
export async function isPartner(db: Executor, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', id)
    .where('user_type', '=', 1)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return !!row;
}

export async function listDomains(
  db: Executor,
  filter: DomainListFilter,
): Promise<{ list: Domain[]; total: number }> {
  let q = db.selectFrom('domains');
  if (filter.keyword) {
    const like = likePattern(filter.keyword);
    q = q.where(
      sql<SqlBool>`(lower(domains.hostname) like ${like} escape '\\' or lower(domains.name) like ${like} escape '\\')`,
    );
  }
  if (filter.owner_id !== undefined) {
    q =
      filter.owner_id === 0
        ? q.where('domains.owner_id', 'is', null)
        : q.where('domains.owner_id', '=', filter.owner_id);
  }
  const limit = filter.limit ?? 20;
  const page = filter.page ?? 1;
  const [rows, count] = await Promise.all([
    q
      .leftJoin('users as owner', 'owner.id', 'domains.owner_id')
      .selectAll('domains')
      .select(['owner.username as owner_username', 'owner.name as owner_real_name'])
      .orderBy('domains.id', 'desc')
      .limit(rowCount(limit))
      .offset(rowCount((page - 1) * limit))
      .execute(),
    q.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toDomain), total: Number(count.n) };
}
