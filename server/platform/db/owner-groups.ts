import type { Executor } from './schema';

/**
 * The flat groups a user sorts their own things into — library resources (`resource_groups`),
 * matrix accounts (`matrix_account_groups`) — with how many live members each holds (members not
 * deleted, by their `group_id`) and how many are in none. One reading for every kind of group.
 */
export type OwnerGroupKind =
  | { groups: 'resource_groups'; members: 'resources' }
  | { groups: 'matrix_account_groups'; members: 'matrix_accounts' };

export async function listOwnerGroups(
  db: Executor,
  kind: OwnerGroupKind,
  ownerId: number,
): Promise<{ list: { id: number; name: string; count: number }[]; ungrouped: number }> {
  // Both kinds have the same columns read here; Kysely is given one of them to type the query.
  const groups = kind.groups as 'resource_groups';
  const members = kind.members as 'resources';
  const [rows, counts] = await Promise.all([
    db
      .selectFrom(groups)
      .select(['id', 'name'])
      .where('owner_id', '=', ownerId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom(members)
      .select((eb) => ['group_id', eb.fn.countAll<number>().as('n')])
      .where('owner_id', '=', ownerId)
      .where('deleted_at', 'is', null)
      .groupBy('group_id')
      .execute(),
  ]);
  const countOf = new Map(counts.map((c) => [c.group_id === null ? 0 : Number(c.group_id), c.n]));
  return {
    list: rows.map((g) => ({
      id: Number(g.id),
      name: g.name,
      count: Number(countOf.get(Number(g.id)) ?? 0),
    })),
    ungrouped: Number(countOf.get(0) ?? 0),
  };
}
