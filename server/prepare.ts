import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './platform/config';
import { ensurePlatformDefaults } from './modules/system';
import type { DbHandle } from './platform/db/connection';
import { migrateToLatest } from './platform/db/migrate';
import { createFirstAdmin, hasAdmin, hasUsers, seedDemo } from './modules/demo';

/**
 * Start-up work on the database: migrations, missing platform settings, then demo data on a fresh
 * database (unless DEMO=0) or else the first admin from the environment. Resolves true when it
 * seeded the demo data now (the caller then adds the demo media, which needs the file storage).
 */
export async function prepareDatabase(
  handle: DbHandle,
  config: Pick<Config, 'demo' | 'adminUsername' | 'adminPassword'>,
  log?: Pick<FastifyBaseLogger, 'info'>,
): Promise<boolean> {
  const now = Date.now();
  await migrateToLatest(handle.db, handle.engine);
  await ensurePlatformDefaults(handle.db, now);
  if (config.demo) {
    if (!(await hasUsers(handle.db))) {
      await seedDemo(handle.db, now);
      log?.info('demo data seeded (accounts admin, partner, partner2, agent, merchant, merchant2)');
      return true;
    }
    return false;
  }
  if (!(await hasAdmin(handle.db))) {
    await createFirstAdmin(handle.db, config.adminUsername, config.adminPassword, now);
    log?.info(`first admin ${config.adminUsername} created`);
  }
  return false;
}
