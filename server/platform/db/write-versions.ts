import type {
  DatabaseConnection,
  Dialect,
  Driver,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  TransactionSettings,
  UnknownRow,
} from 'kysely';

/**
 * Counts the writes made through one database handle, per table and per updated column, so that
 * what is derived from a table (a list's total, see list-cache.ts) can tell whether it may have
 * changed. A write counts when its statement has run and again when a transaction open meanwhile
 * ends: a reader on another connection that computed from the state before the commit is then
 * outdated too. Writes by other processes are not seen (the cache bounds their effect by time).
 */
export class WriteVersions {
  private readonly counts = new Map<string, number>();
  /** Writes that name no table we can read (raw SQL): they outdate everything. */
  private epoch = 0;
  /** Writes made while a transaction was open, numbered, to count again when it ends. */
  private log: { seq: number; keys: readonly string[] | 'all' }[] = [];
  private seq = 0;
  /** Open transactions: connection → the last write's number when it began. */
  private readonly open = new Map<DatabaseConnection, number>();

  bump(keys: Iterable<string> | 'all'): void {
    if (keys === 'all') {
      this.epoch += 1;
      return;
    }
    for (const key of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** A statement that wrote `keys` has run. */
  wrote(keys: readonly string[] | 'all'): void {
    this.bump(keys);
    if (this.open.size > 0) this.log.push({ seq: (this.seq += 1), keys });
  }

  transactionBegan(connection: DatabaseConnection): void {
    this.open.set(connection, this.seq);
  }

  /**
   * Counts again every write made since the transaction began, on any connection (the plugin does
   * not know which connection ran a statement: counting others' writes too only outdates more).
   */
  transactionEnded(connection: DatabaseConnection): void {
    const from = this.open.get(connection);
    this.open.delete(connection);
    if (from === undefined) return;
    for (const write of this.log) if (write.seq > from) this.bump(write.keys);
    const oldest = Math.min(...this.open.values());
    this.log = this.open.size === 0 ? [] : this.log.filter((write) => write.seq > oldest);
  }

  /**
   * A value that changes whenever a row of `table` is inserted or deleted, or one of `columns`
   * is updated (updates of other columns leave it alone).
   */
  versionOf(table: string, columns: readonly string[]): string {
    let updates = 0;
    for (const column of columns) updates += this.counts.get(`${table}.${column}`) ?? 0;
    return `${this.epoch}.${this.counts.get(table) ?? 0}.${updates}`;
  }
}

/**
 * A data-changing statement at the start of raw SQL, of a CTE's body (`with x as (update …)`) or
 * after a CTE (`with x as (…) update …`); `select … for update` and `on conflict do update` are
 * not at such a place.
 */
const RAW_WRITE =
  /(?:^|[();])\s*(?:insert|update|delete|replace|merge|upsert|truncate|create|drop|alter)\b/i;

interface NamedNode extends OperationNode {
  table?: { identifier?: { name?: string } };
  node?: OperationNode;
  froms?: readonly OperationNode[];
}

function tableNames(node: OperationNode | undefined): string[] {
  if (!node) return [];
  const n = node as NamedNode;
  if (n.kind === 'TableNode' && n.table?.identifier?.name) return [n.table.identifier.name];
  if (n.kind === 'AliasNode') return tableNames(n.node);
  if (n.froms) return n.froms.flatMap((f) => tableNames(f));
  return [];
}

/** Verdicts per fragments array: a template's fragments are one frozen array per call site. */
const fragmentVerdicts = new WeakMap<readonly string[], boolean>();

/**
 * Whether raw SQL writes. Each fragment is read on its own, its start counting as a statement
 * position (a nested `sql` part begins where its parent left a parameter, e.g. in a CTE's
 * parentheses); the verdict of each fragments array is kept, so a list page's large raw query
 * costs a walk over its nodes, not a scan of its text, on every run.
 */
function rawWrites(node: OperationNode): boolean {
  const raw = node as OperationNode & {
    sqlFragments: readonly string[];
    parameters: readonly OperationNode[];
  };
  let writes = fragmentVerdicts.get(raw.sqlFragments);
  if (writes === undefined) {
    writes = raw.sqlFragments.some((fragment) => RAW_WRITE.test(fragment));
    fragmentVerdicts.set(raw.sqlFragments, writes);
  }
  return writes || raw.parameters.some((p) => p.kind === 'RawNode' && rawWrites(p));
}

function addKeys(into: string[] | 'all', keys: string[] | 'all'): string[] | 'all' {
  if (into === 'all' || keys === 'all') return 'all';
  into.push(...keys);
  return into;
}

/**
 * What a statement writes: keys for WriteVersions (`table` for inserts and deletes,
 * `table.column` per updated column), 'all' when it cannot tell (raw SQL that writes, MERGE),
 * [] for reads. Data-changing CTEs (`with x as (update …) select …`) count too.
 */
export function writtenKeys(root: OperationNode): string[] | 'all' {
  const node = root as OperationNode & Record<string, unknown>;
  let keys: string[] | 'all' = [];
  const ctes = (node.with as { expressions?: readonly { expression?: OperationNode }[] })
    ?.expressions;
  for (const cte of ctes ?? []) {
    if (cte.expression) keys = addKeys(keys, writtenKeys(cte.expression));
  }
  switch (node.kind) {
    case 'InsertQueryNode':
      return addKeys(keys, tableNames(node.into as OperationNode));
    case 'DeleteQueryNode':
      return addKeys(keys, tableNames(node.from as OperationNode));
    case 'UpdateQueryNode': {
      const columns = ((node.updates ?? []) as { column: { column?: { name?: string } } }[])
        .map((u) => u.column.column?.name)
        .filter((c): c is string => !!c);
      const tables = tableNames(node.table as OperationNode);
      if (tables.length === 0) return 'all';
      return addKeys(
        keys,
        tables.flatMap((t) => (columns.length ? columns.map((c) => `${t}.${c}`) : [t])),
      );
    }
    case 'MergeQueryNode':
      return 'all';
    case 'RawNode':
      return rawWrites(node) ? 'all' : keys;
    default:
      return keys;
  }
}

/**
 * Kysely's public hook for every statement (builder or raw `sql`): what a statement writes is
 * read from its tree before it runs and counted once it has run (a failed statement changed
 * nothing).
 */
export class WriteTrackingPlugin implements KyselyPlugin {
  private readonly pending = new WeakMap<QueryId, string[] | 'all'>();

  constructor(private readonly versions: WriteVersions) {}

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const keys = writtenKeys(node);
    if (keys === 'all' || keys.length > 0) this.pending.set(queryId, keys);
    return node;
  }

  async transformResult({
    queryId,
    result,
  }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const keys = this.pending.get(queryId);
    if (keys) {
      this.pending.delete(queryId);
      this.versions.wrote(keys);
    }
    return result;
  }
}

/**
 * The dialect, telling `versions` when transactions begin and end. Only the public Driver
 * interface is used (each call passed on unchanged): Kysely has no plugin hook for commits.
 */
export function trackTransactions(dialect: Dialect, versions: WriteVersions): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      const ended = async (connection: DatabaseConnection, end: () => Promise<void>) => {
        try {
          await end();
        } finally {
          versions.transactionEnded(connection);
        }
      };
      return {
        init: () => driver.init(),
        acquireConnection: () => driver.acquireConnection(),
        async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
          await driver.beginTransaction(connection, settings);
          versions.transactionBegan(connection);
        },
        commitTransaction: (connection) =>
          ended(connection, () => driver.commitTransaction(connection)),
        rollbackTransaction: (connection) =>
          ended(connection, () => driver.rollbackTransaction(connection)),
        savepoint: driver.savepoint?.bind(driver),
        rollbackToSavepoint: driver.rollbackToSavepoint?.bind(driver),
        releaseSavepoint: driver.releaseSavepoint?.bind(driver),
        releaseConnection: (connection) => driver.releaseConnection(connection),
        destroy: () => driver.destroy(),
      };
    },
  };
}
