import type { CreateTableBuilder } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

/**
 * The one DDL difference between the engines that the migrations meet: the auto-increment id.
 * Everything else in migrations and queries is written once with Kysely.
 */
export function addIdColumn<T extends string>(
  table: CreateTableBuilder<T, never>,
  engine: Engine,
): CreateTableBuilder<T, 'id'> {
  return engine === 'postgres'
    ? table.addColumn('id', 'bigserial', (col) => col.primaryKey())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}
