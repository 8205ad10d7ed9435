import type { DomainRow, Executor } from '../../platform/db/schema';
import { DOMAIN_STATUS } from '../../platform/db/schema';
import type { ConfigDefault } from './defaults';

export interface ConfigPairRow {
  name: string;
  value: string;
}

export async function readConfig(
  db: Executor,
  names: readonly string[],
): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .selectFrom('platform_config')
    .select(['name', 'value'])
    .where('name', 'in', names)
    .execute();
  return new Map(rows.map((r) => [r.name, r.value]));
}

export async function readConfigValue(db: Executor, name: string): Promise<string | undefined> {
  return (await readConfig(db, [name])).get(name);
}

/** Non-secret keys of the given groups, in name order. */
export function readPublicGroups(
  db: Executor,
  groups: readonly string[],
): Promise<ConfigPairRow[]> {
  return db
    .selectFrom('platform_config')
    .select(['name', 'value'])
    .where('group_name', 'in', groups)
    .where('is_secret', '=', 0)
    .orderBy('group_name')
    .orderBy('name')
    .execute();
}

export async function insertMissingConfig(
  db: Executor,
  defaults: readonly ConfigDefault[],
  now: number,
): Promise<void> {
  if (defaults.length === 0) return;
  await db
    .insertInto('platform_config')
    .values(
      defaults.map((d) => ({
        name: d.name,
        value: d.value,
        group_name: d.group,
        is_secret: d.secret ? 1 : 0,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export async function setConfigValue(
  db: Executor,
  name: string,
  value: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('platform_config')
    .set({ value, updated_at: now })
    .where('name', '=', name)
    .execute();
}

export function findActiveDomain(db: Executor, hostname: string): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('hostname', '=', hostname)
    .where('status', '=', DOMAIN_STATUS.active)
    .executeTakeFirst();
}
