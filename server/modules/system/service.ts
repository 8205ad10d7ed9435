import type { ConfigPair, SimpleConfigGroup, SystemInfo } from '../../../src/api/contract/system';
import type { AppContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import { BRANDING_FIELDS, PLATFORM_DEFAULTS, SYSTEM_INFO_SETTINGS } from './defaults';
import { findActiveDomain, insertMissingConfig, readConfig, readPublicGroups } from './repo';

/**
 * The host part of what the console sends: a host, `host:port` or a whole origin (docs/domain.md §13: system
 * info is fetched "by the current origin"). Lower-case, no port, no trailing dot.
 */
export function normalizeHost(input: string | undefined): string | undefined {
  let host = (input ?? '').trim().toLowerCase();
  if (!host) return undefined;
  if (host.includes('://')) {
    try {
      host = new URL(host).hostname;
    } catch {
      return undefined;
    }
  } else {
    host = host.split(/[/?#]/)[0];
    host = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  }
  host = host.replace(/\.$/, '');
  return host || undefined;
}

/** Adds the platform settings an installation lacks (never overwrites a value). */
export function ensurePlatformDefaults(db: Executor, now: number): Promise<void> {
  return insertMissingConfig(db, PLATFORM_DEFAULTS, now);
}

/** The active domain's branding merged over the platform defaults; unknown hosts get the defaults. */
export async function getSystemInfo(
  ctx: AppContext,
  host: string | undefined,
): Promise<SystemInfo> {
  const names = [...BRANDING_FIELDS, ...SYSTEM_INFO_SETTINGS];
  const settings = await readConfig(ctx.db, names);
  const info = Object.fromEntries(names.map((n) => [n, settings.get(n) ?? ''])) as Record<
    (typeof names)[number],
    string
  >;
  const domain = host ? await findActiveDomain(ctx.db, host) : undefined;
  if (domain) {
    for (const field of BRANDING_FIELDS) {
      // police_record is a 0/1 switch the domain always decides; other fields override when set.
      if (field === 'police_record' || domain[field] !== '') info[field] = domain[field];
    }
  }
  return info;
}

/** `[{name, value}]` of the non-secret settings in the requested groups. */
export function getSimpleConfig(
  ctx: AppContext,
  groups: readonly SimpleConfigGroup[],
): Promise<ConfigPair[]> {
  return readPublicGroups(ctx.db, [...new Set(groups)]);
}
