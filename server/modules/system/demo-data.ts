import type { Executor } from '../../platform/db/schema';
import { insertMissingConfig, readConfigValue } from './repo';

/**
 * A private platform setting (no public group) that the demo seed sets: the database holds the
 * demo data, so test-only features (the sandbox payment provider) may be on by default.
 */
const DEMO_DATA_KEY = 'demo_data';

export async function markDemoData(db: Executor, now: number): Promise<void> {
  await insertMissingConfig(db, [{ group: 'internal', name: DEMO_DATA_KEY, value: '1' }], now);
}

export async function holdsDemoData(db: Executor): Promise<boolean> {
  return (await readConfigValue(db, DEMO_DATA_KEY)) === '1';
}
