/**
 * The server suites' template databases, made once per Vitest run (vitest.config.ts `globalSetup`
 * of the server projects): per engine one migrated database and one migrated, with the platform
 * defaults and the demo data seeded (at T0, as `createTestApp` seeded each test's before). Each
 * test gets a copy (tests/server/helpers.ts `createTestDatabase`): SQLite copies the file,
 * PostgreSQL makes a database `TEMPLATE` the template's. Migrating and seeding took most of a
 * server test's setup (docs/decisions.md "Tests").
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { seedDemo } from '../../server/modules/demo/seed';
import { ensurePlatformDefaults } from '../../server/modules/system/service';
import { PG_SCHEMA, T0, databaseUrl, withPgClient, type TemplateKind } from './db-templates';
import { buildServerBundle, removeServerBundle } from './server-bundle';

const PG_URL = process.env.TEST_DATABASE_URL;

async function fill(handle: DbHandle, kind: TemplateKind): Promise<void> {
  try {
    await migrateToLatest(handle.db, handle.engine);
    if (kind === 'seeded') {
      await ensurePlatformDefaults(handle.db, T0);
      await seedDemo(handle.db, T0);
    }
  } finally {
    await handle.close(); // SQLite: checkpoints the WAL into app.db; PostgreSQL: no connection left
  }
}

const KINDS: TemplateKind[] = ['migrated', 'seeded'];

export default async function setup(project: TestProject) {
  const prefix = `vct_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-test-templates-'));
  const sqlite = {} as Record<TemplateKind, string>;
  for (const kind of KINDS) {
    const dataDir = path.join(root, kind);
    await fill(openDatabase({ dataDir }), kind);
    sqlite[kind] = path.join(dataDir, 'app.db');
  }
  let postgres: Record<TemplateKind, string> | undefined;
  if (PG_URL) {
    postgres = {} as Record<TemplateKind, string>;
    for (const kind of KINDS) {
      const name = `${prefix}_${kind}`;
      await withPgClient((client) => client.query(`create database ${name}`));
      await withPgClient((client) => client.query(`create schema ${PG_SCHEMA}`), databaseUrl(name));
      await fill(
        openDatabase({ dataDir: root, databaseUrl: databaseUrl(name), pgSchema: PG_SCHEMA }),
        kind,
      );
      postgres[kind] = name;
    }
  }
  project.provide('dbTemplates', { sqlite, postgres, prefix });
  const bundle = await buildServerBundle(prefix);
  project.provide('serverBundle', bundle);

  return async () => {
    await fs.rm(root, { recursive: true, force: true });
    await removeServerBundle(bundle);
    if (!PG_URL) return;
    await withPgClient(async (client) => {
      // The templates, and any copy a test left behind (a failed or killed test).
      const { rows } = await client.query<{ datname: string }>(
        "select datname from pg_database where datname like $1 || '\\_%'",
        [prefix],
      );
      for (const { datname } of rows) {
        await client.query(`drop database if exists ${datname} with (force)`);
      }
    });
  };
}
