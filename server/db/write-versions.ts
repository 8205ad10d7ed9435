import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  OperationNode,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/**
 * Counts the writes made through one database handle, per table and per updated column, so that
 * what is derived from a table (a list's total, see list-cache.ts) can tell whether it may have
 * changed. A write counts when its statement has run and again when its transaction ends: a
 * reader on another connection that computed from the state before the commit is then outdated
 * too. Writes by other processes are not seen (the cache bounds their effect by time).
 */
export class WriteVersions {
  private readonly counts = new Map<string, number>();
  /** Writes that name no table we can read (raw SQL): they outdate everything. */
  private epoch = 0;

  bump(keys: Iterable<string> | 'all'): void {
    if (keys === 'all') {
      this.epoch += 1;
      return;
    }
    for (const key of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
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

const RAW_WRITE = /^\s*(insert|update|delete|replace|merge|create|drop|alter|truncate)\b/i;

function tableNames(node: OperationNode | undefined): string[] {
  if (!node) return [];
  const n = node as OperationNode & {
    table?: { identifier?: { name?: string } };
    node?: OperationNode;
    froms?: readonly OperationNode[];
  };
  if (n.kind === 'TableNode' && n.table?.identifier?.name) return [n.table.identifier.name];
  if (n.kind === 'AliasNode') return tableNames(n.node);
  if (n.froms) return n.froms.flatMap((f) => tableNames(f));
  return [];
}

/** What a statement writes: keys for WriteVersions, 'all' when unknown, [] for reads. */
export function writtenKeys(query: CompiledQuery): string[] | 'all' {
  const node = query.query as OperationNode & Record<string, unknown>;
  switch (node.kind) {
    case 'InsertQueryNode':
      return tableNames(node.into as OperationNode);
    case 'DeleteQueryNode':
      return tableNames(node.from as OperationNode);
    case 'UpdateQueryNode': {
      const columns = ((node.updates ?? []) as { column: { column?: { name?: string } } }[])
        .map((u) => u.column.column?.name)
        .filter((c): c is string => !!c);
      const tables = tableNames(node.table as OperationNode);
      if (tables.length === 0) return 'all';
      return tables.flatMap((t) => (columns.length ? columns.map((c) => `${t}.${c}`) : [t]));
    }
    case 'MergeQueryNode':
      return 'all';
    case 'RawNode':
      return RAW_WRITE.test(query.sql) ? 'all' : [];
    default:
      return [];
  }
}

const TRACKED = Symbol('writeVersionsTracked');
type TrackedConnection = DatabaseConnection & {
  [TRACKED]?: { inTransaction: boolean; written: Set<string>; all: boolean };
};

/** The dialect, with every write through its connections counted in `versions`. */
export function trackWrites(dialect: Dialect, versions: WriteVersions): Dialect {
  const state = (connection: DatabaseConnection) => {
    const c = connection as TrackedConnection;
    if (!c[TRACKED]) {
      const tracked = { inTransaction: false, written: new Set<string>(), all: false };
      const execute = c.executeQuery.bind(c);
      c.executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const result = await execute<R>(query);
        const keys = writtenKeys(query);
        if (keys === 'all' || keys.length > 0) {
          versions.bump(keys);
          if (tracked.inTransaction) {
            if (keys === 'all') tracked.all = true;
            else for (const key of keys) tracked.written.add(key);
          }
        }
        return result;
      };
      c[TRACKED] = tracked;
    }
    return c[TRACKED]!;
  };
  const endTransaction = (connection: DatabaseConnection) => {
    const tracked = state(connection);
    if (tracked.all) versions.bump('all');
    versions.bump(tracked.written);
    tracked.inTransaction = false;
    tracked.all = false;
    tracked.written.clear();
  };
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      return {
        init: () => driver.init(),
        async acquireConnection() {
          const connection = await driver.acquireConnection();
          state(connection);
          return connection;
        },
        async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
          await driver.beginTransaction(connection, settings);
          state(connection).inTransaction = true;
        },
        async commitTransaction(connection: DatabaseConnection) {
          try {
            await driver.commitTransaction(connection);
          } finally {
            endTransaction(connection);
          }
        },
        async rollbackTransaction(connection: DatabaseConnection) {
          try {
            await driver.rollbackTransaction(connection);
          } finally {
            endTransaction(connection);
          }
        },
        savepoint: driver.savepoint?.bind(driver),
        rollbackToSavepoint: driver.rollbackToSavepoint?.bind(driver),
        releaseSavepoint: driver.releaseSavepoint?.bind(driver),
        releaseConnection: (connection: DatabaseConnection) => driver.releaseConnection(connection),
        destroy: () => driver.destroy(),
      };
    },
  };
}
