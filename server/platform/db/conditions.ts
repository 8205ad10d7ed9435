import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * A condition as SQL text with its parameters: shared by queries written as SQL (list pages:
 * Kysely's building and compiling of a page query cost more than the query, docs/performance.md)
 * and builder queries, which take it in `.where()`.
 */
export type Condition = RawBuilder<SqlBool>;

/** Every condition holds (in parentheses, so that it nests in any expression). */
export const allOf = (conditions: Condition[]): Condition =>
  sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;

/**
 * A LIMIT or OFFSET count written into the SQL text instead of bound as a parameter: SQLite (as
 * better-sqlite3 builds it) compiles a statement again on every run when its LIMIT is a bound
 * parameter, which cost a customer page's statement 0.18 ms a run (docs/performance.md "Fourth
 * round"). Only integers reach the text.
 */
export function rowCount(n: number): RawBuilder<number> {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return sql.lit(n);
}

/** `lower(x) LIKE '%kw%'` with the keyword's own % _ \ taken literally. */
export function likePattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
