import type { OperationNode, OperationNodeSource } from 'kysely';

/**
 * What a list's total and page anchors are computed from: inserts and deletes of `table`, and
 * updates of the columns its conditions read.
 */
export interface ListSource {
  table: string;
  columns: readonly string[];
  /** Other tables the conditions read (through a join), with the columns they read. */
  joined?: readonly { table: string; columns: readonly string[] }[];
}

type Node = OperationNode & Record<string, unknown>;

/** `alias.column` in raw SQL (`+c.owner_id`, `users.status`), not inside a longer name. */
const QUALIFIED = /(?<![\w.])([A-Za-z_]\w*)\.([A-Za-z_]\w*)/g;

const nameOf = (node: unknown): string | undefined => (node as { name?: string } | undefined)?.name;

function tableOf(node: Node): string | undefined {
  return nameOf((node.table as { identifier?: unknown } | undefined)?.identifier);
}

/** alias (or table name) → table, for a FROM item or a join's table. */
function addTable(node: Node | undefined, into: Map<string, string>): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'TableNode') {
    const table = tableOf(node);
    if (table) into.set(table, table);
    return table;
  }
  if (node.kind === 'AliasNode') {
    const table = (node.node as Node).kind === 'TableNode' ? tableOf(node.node as Node) : undefined;
    const alias = nameOf(node.alias);
    if (table && alias) into.set(alias, table);
    return table;
  }
  return undefined;
}

/**
 * Every column a condition reads, as [alias or undefined, column]: references the query builder
 * made and `alias.column` in raw SQL fragments (the lists' conditions, db/conditions.ts).
 */
function readColumns(node: unknown, out: [string | undefined, string][]): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) readColumns(child, out);
    return;
  }
  const n = node as Node;
  if (n.kind === 'ReferenceNode') {
    const column = nameOf((n.column as { column?: unknown }).column);
    const table = n.table ? tableOf(n.table as Node) : undefined;
    if (column) out.push([table, column]);
    return;
  }
  if (n.kind === 'RawNode') {
    for (const fragment of n.sqlFragments as readonly string[]) {
      for (const match of fragment.matchAll(QUALIFIED)) out.push([match[1], match[2]]);
    }
  }
  for (const value of Object.values(n))
    if (value && typeof value === 'object') readColumns(value, out);
}

/**
 * The source of a list, read from its filtered query (FROM, joins and WHERE): the first table
 * of FROM and the columns its conditions and joins read, and each joined table with the columns
 * read of it. Nobody keeps a list of watched columns by hand, so a new filter cannot be missed.
 */
export function listSourceOf(query: OperationNodeSource): ListSource {
  const root = query.toOperationNode() as Node;
  const tables = new Map<string, string>();
  const froms = ((root.from as Node | undefined)?.froms ?? []) as Node[];
  const main = froms.map((f) => addTable(f, tables)).find((t) => t !== undefined);
  if (!main) throw new Error('a list query selects from a table');
  const joins = (root.joins ?? []) as Node[];
  for (const join of joins) addTable(join.table as Node, tables);
  const read: [string | undefined, string][] = [];
  readColumns(root.where, read);
  for (const join of joins) readColumns(join.on, read);
  const columns = new Map<string, Set<string>>([[main, new Set()]]);
  for (const [alias, column] of read) {
    const table = alias === undefined ? main : tables.get(alias);
    if (!table) continue; // a subquery's own table
    if (!columns.has(table)) columns.set(table, new Set());
    columns.get(table)!.add(column);
  }
  const joined = [...columns]
    .filter(([table]) => table !== main)
    .map(([table, cols]) => ({ table, columns: [...cols].sort() }));
  return {
    table: main,
    columns: [...columns.get(main)!].sort(),
    ...(joined.length ? { joined } : {}),
  };
}
