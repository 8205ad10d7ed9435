/**
 * What tests/server/global-setup.ts and tests/server/helpers.ts share: the template databases'
 * names and the PostgreSQL connection helpers.
 */
import pg from 'pg';

const PG_URL = process.env.TEST_DATABASE_URL;

/** A fixed start (a weekday morning, Asia/Shanghai) so expiry arithmetic is exact. */
export const T0 = Date.parse('2026-03-02T02:00:00.000Z');

/** What a test's database starts as. */
export type TemplateKind = 'migrated' | 'seeded';

export interface DbTemplates {
  /** SQLite: the template's `app.db` by kind. */
  sqlite: Record<TemplateKind, string>;
  /** PostgreSQL: the template database's name by kind (its tables in schema {@link PG_SCHEMA}). */
  postgres?: Record<TemplateKind, string>;
  /** Prefix of every database this run makes (the templates' copies are dropped by it at the end). */
  prefix: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplates: DbTemplates;
  }
}

/** The schema a PostgreSQL template (and so each copy) keeps its tables in. */
export const PG_SCHEMA = 't';

/** TEST_DATABASE_URL with another database. */
export function databaseUrl(name: string): string {
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One connection (to TEST_DATABASE_URL, or `url`) for `work`; its session ends after it. */
export async function withPgClient<T>(
  work: (client: pg.Client) => Promise<T>,
  url = PG_URL,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
