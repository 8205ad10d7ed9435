import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Engine } from './dialect';
import type { Db } from './schema';
import * as initial from './migrations/0001-initial';
import * as money from './migrations/0002-money';
import * as listIndexes from './migrations/0003-list-indexes';
import * as memoIds from './migrations/0004-memo-ids';
import * as jobs from './migrations/0005-jobs';
import * as resources from './migrations/0006-resources';
import * as videoTasks from './migrations/0007-video-tasks';
import * as resourceAudio from './migrations/0008-resource-audio';
import * as digitalHuman from './migrations/0009-digital-human';
import * as dhSpeech from './migrations/0010-dh-speech';
import * as integrationSettings from './migrations/0011-integration-settings';
import * as auditTrail from './migrations/0012-audit-trail';
import * as ledgerHolds from './migrations/0013-ledger-holds';
import * as notifications from './migrations/0014-notifications';
import * as sandboxPlatform from './migrations/0015-sandbox-platform';
import * as matrixAccounts from './migrations/0016-matrix-accounts';
import * as matrixPlans from './migrations/0017-matrix-plans';
import * as matrixPlanCounts from './migrations/0018-matrix-plan-counts';
import * as dashboardSeries from './migrations/0024-dashboard-series';
import * as domainBranding from './migrations/0019-domain-branding';
import * as settings from './migrations/0022-settings';
import * as aiTools from './migrations/0023-ai-tools';
import * as articlesAgreements from './migrations/0025-articles-agreements';
import * as platformImages from './migrations/0026-platform-images';
import * as storagePlaces from './migrations/0028-storage-places';
import * as videoNarration from './migrations/0029-video-narration';
import * as videoTaskPresets from './migrations/0030-video-task-presets';
import * as worksLibrary from './migrations/0031-works-library';
import * as dhTemplate4x3 from './migrations/0034-dh-template-4x3';
import * as dhTemplateOwners from './migrations/0035-dh-template-owners';
import * as outputCrc from './migrations/0036-output-crc';

/** In-code provider: migrations are ordinary modules, ordered by their keys. */
function provider(engine: Engine): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001-initial': { up: (db) => initial.up(db, engine), down: (db) => initial.down(db) },
    '0002-money': { up: (db) => money.up(db, engine), down: (db) => money.down(db) },
    '0003-list-indexes': {
      up: (db) => listIndexes.up(db, engine),
      down: (db) => listIndexes.down(db, engine),
    },
    '0004-memo-ids': { up: (db) => memoIds.up(db), down: (db) => memoIds.down(db) },
    '0005-jobs': { up: (db) => jobs.up(db, engine), down: (db) => jobs.down(db) },
    '0006-resources': {
      up: (db) => resources.up(db, engine),
      down: (db) => resources.down(db),
    },
    '0007-video-tasks': {
      up: (db) => videoTasks.up(db, engine),
      down: (db) => videoTasks.down(db),
    },
    '0008-resource-audio': {
      up: (db) => resourceAudio.up(db),
      down: (db) => resourceAudio.down(db),
    },
    '0009-digital-human': {
      up: (db) => digitalHuman.up(db, engine),
      down: (db) => digitalHuman.down(db),
    },
    '0010-dh-speech': { up: (db) => dhSpeech.up(db), down: (db) => dhSpeech.down(db) },
    '0011-integration-settings': {
      up: (db) => integrationSettings.up(db),
      down: (db) => integrationSettings.down(db),
    },
    '0012-audit-trail': {
      up: (db) => auditTrail.up(db, engine),
      down: (db) => auditTrail.down(db, engine),
    },
    '0013-ledger-holds': {
      up: (db) => ledgerHolds.up(db, engine),
      down: (db) => ledgerHolds.down(db),
    },
    '0014-notifications': {
      up: (db) => notifications.up(db, engine),
      down: (db) => notifications.down(db),
    },
    '0015-sandbox-platform': {
      up: (db) => sandboxPlatform.up(db, engine),
      down: (db) => sandboxPlatform.down(db),
    },
    '0016-matrix-accounts': {
      up: (db) => matrixAccounts.up(db, engine),
      down: (db) => matrixAccounts.down(db),
    },
    '0017-matrix-plans': {
      up: (db) => matrixPlans.up(db, engine),
      down: (db) => matrixPlans.down(db),
    },
    '0018-matrix-plan-counts': {
      up: (db) => matrixPlanCounts.up(db, engine),
      down: (db) => matrixPlanCounts.down(db, engine),
    },
    '0024-dashboard-series': {
      up: (db) => dashboardSeries.up(db, engine),
      down: (db) => dashboardSeries.down(db),
    },
    '0019-domain-branding': {
      up: (db) => domainBranding.up(db, engine),
      down: (db) => domainBranding.down(db, engine),
    },
    '0022-settings': {
      up: (db) => settings.up(db, engine),
      down: (db) => settings.down(db),
    },
    '0023-ai-tools': {
      up: (db) => aiTools.up(db, engine),
      down: (db) => aiTools.down(db),
    },
    '0025-articles-agreements': {
      up: (db) => articlesAgreements.up(db, engine),
      down: (db) => articlesAgreements.down(db),
    },
    '0026-platform-images': {
      up: (db) => platformImages.up(db, engine),
      down: (db) => platformImages.down(db),
    },
    '0028-storage-places': {
      up: (db) => storagePlaces.up(db, engine),
      down: (db) => storagePlaces.down(db),
    },
    '0029-video-narration': {
      up: (db) => videoNarration.up(db),
      down: (db) => videoNarration.down(db),
    },
    '0030-video-task-presets': {
      up: (db) => videoTaskPresets.up(db, engine),
      down: (db) => videoTaskPresets.down(db),
    },
    '0031-works-library': {
      up: (db) => worksLibrary.up(db, engine),
      down: (db) => worksLibrary.down(db),
    },
    '0034-dh-template-4x3': {
      up: (db) => dhTemplate4x3.up(db),
      down: (db) => dhTemplate4x3.down(db),
    },
    '0035-dh-template-owners': {
      up: (db) => dhTemplateOwners.up(db, engine),
      down: (db) => dhTemplateOwners.down(db),
    },
    '0036-output-crc': { up: (db) => outputCrc.up(db), down: (db) => outputCrc.down(db) },
  };
  return { getMigrations: async () => migrations };
}

/** Applies every pending migration; throws (with the failing migration's error) on failure. */
export async function migrateToLatest(db: Db, engine: Engine): Promise<void> {
  // On PostgreSQL the migration tables live in the connection's own schema: Kysely otherwise
  // finds another schema's table (e.g. a parallel test run) and skips creating its own.
  const migrationTableSchema =
    engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
          ?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: provider(engine),
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error : new Error(String(error ?? 'unknown error'));
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason.message}`, {
      cause: reason,
    });
  }
}
