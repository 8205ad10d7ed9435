import type { Db, Executor } from '../db/schema';
import type { SealedPlace, Sealer } from './sealed';

/**
 * The sealed settings store (`integration_settings`, docs/architecture.md §Secrets): secrets of
 * the outside services by integration kind and field name, each sealed for its own row. Generic
 * on purpose: the integrations read it at the time of use (a value set takes effect without a
 * restart, in every process), the admin calls and the system-init page write it. Nothing here
 * returns a sealed value; only `read` returns a plain one, to the code that uses it.
 */
export interface SecretStore {
  /** The plain value of `kind.name`, or undefined when none is stored (throws a SecretError when it does not open). */
  read(kind: string, name: string): Promise<string | undefined>;
  /** Seals and stores a value (replacing any), in the caller's transaction when given one. */
  write(db: Executor, entry: SecretEntry): Promise<void>;
  /** Removes a stored value; false when there was none. */
  clear(db: Executor, kind: string, name: string): Promise<boolean>;
  /** What is stored, without the values. */
  list(): Promise<StoredSecretInfo[]>;
}

export interface SecretEntry {
  kind: string;
  name: string;
  value: string;
  /** The user who set it (null: the system). */
  by: number | null;
  now: number;
}

export interface StoredSecretInfo {
  kind: string;
  name: string;
  last4: string | null;
  updated_at: number;
  updated_by: number | null;
}

/** Values shorter than this show no last four characters (they would give too much away). */
export const LAST4_FROM_LENGTH = 12;

const KIND = /^[a-z][a-z0-9-]*$/;
const NAME = /^[a-z][a-z0-9_]*$/;

/** The row a value is sealed for: `integration_settings:sealed:<kind>.<name>`. */
function placeOf(kind: string, name: string): SealedPlace {
  if (!KIND.test(kind) || !NAME.test(name)) throw new Error(`not a setting: ${kind}.${name}`);
  return { table: 'integration_settings', field: 'sealed', row: `${kind}.${name}` };
}

export function createSecretStore(db: Db, sealer: Sealer): SecretStore {
  return {
    async read(kind, name) {
      const place = placeOf(kind, name);
      const row = await db
        .selectFrom('integration_settings')
        .select('sealed')
        .where('kind', '=', kind)
        .where('name', '=', name)
        .executeTakeFirst();
      return row ? sealer.open(row.sealed, place) : undefined;
    },

    async write(executor, { kind, name, value, by, now }) {
      const values = {
        sealed: sealer.seal(value, placeOf(kind, name)),
        last4: [...value].length >= LAST4_FROM_LENGTH ? [...value].slice(-4).join('') : null,
        updated_at: now,
        updated_by: by,
      };
      await executor
        .insertInto('integration_settings')
        .values({ kind, name, ...values })
        .onConflict((oc) => oc.columns(['kind', 'name']).doUpdateSet(values))
        .execute();
    },

    async clear(executor, kind, name) {
      placeOf(kind, name);
      const result = await executor
        .deleteFrom('integration_settings')
        .where('kind', '=', kind)
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async list() {
      const rows = await db
        .selectFrom('integration_settings')
        .select(['kind', 'name', 'last4', 'updated_at', 'updated_by'])
        .orderBy('kind')
        .orderBy('name')
        .execute();
      return rows.map((row) => ({
        ...row,
        updated_at: Number(row.updated_at),
        updated_by: row.updated_by === null ? null : Number(row.updated_by),
      }));
    },
  };
}
