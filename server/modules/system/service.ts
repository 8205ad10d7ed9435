import type { ConfigPair, SimpleConfigGroup, SystemInfo } from '../../../src/api/contract/system';
import { DOMAIN_SHOW_FLAGS } from '../../../src/api/contract/domains';
import type { AppContext } from '../../context';
import { listCacheOf } from '../../platform/db/list-cache';
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

/**
 * How long (real time) a cached answer is trusted when writes of other processes cannot be seen
 * (PostgreSQL with a separate worker or several servers); on SQLite every commit is seen at once.
 */
export const SYSTEM_INFO_TTL_MS = 5_000;
const SYSTEM_INFO_MAX_ENTRIES = 1_000;

/** What the answer is derived from: every column of both tables (docs/domain.md §12). */
const SYSTEM_INFO_SOURCES = [
  {
    table: 'domains',
    columns: [
      'hostname',
      'owner_id',
      'status',
      'theme_color',
      ...BRANDING_FIELDS,
      ...DOMAIN_SHOW_FLAGS,
    ],
  },
  { table: 'platform_config', columns: ['name', 'value', 'group_name', 'is_secret'] },
] as const;

interface CachedInfo {
  version: string;
  /** Date.now() after which it is read again. */
  stale: number;
  info: Promise<SystemInfo>;
}

const infoCaches = new WeakMap<object, Map<string, CachedInfo>>();

/**
 * The enabled domain's brand merged over the platform defaults; an unknown or disabled host gets
 * the platform's. Cached per database handle and host: an entry holds until `domains` or
 * `platform_config` is written through this handle (or, on SQLite, by any other connection), and
 * at most SYSTEM_INFO_TTL_MS otherwise (docs/domain.md §12).
 */
export function getSystemInfo(ctx: AppContext, host: string | undefined): Promise<SystemInfo> {
  const cache = listCacheOf(ctx.db);
  if (!cache) return readSystemInfo(ctx.db, host);
  let entries = infoCaches.get(ctx.db);
  if (!entries) infoCaches.set(ctx.db, (entries = new Map()));
  const key = host ?? '';
  const version = cache.versionOf(SYSTEM_INFO_SOURCES);
  const hit = entries.get(key);
  if (hit && hit.version === version && Date.now() < hit.stale) return hit.info;
  if (entries.size >= SYSTEM_INFO_MAX_ENTRIES) entries.clear();
  const entry: CachedInfo = {
    version,
    stale: cache.seesExternalWrites ? Infinity : Date.now() + SYSTEM_INFO_TTL_MS,
    info: readSystemInfo(ctx.db, host).catch((error: unknown) => {
      if (entries.get(key) === entry) entries.delete(key);
      throw error;
    }),
  };
  entries.set(key, entry);
  return entry.info;
}

async function readSystemInfo(db: Executor, host: string | undefined): Promise<SystemInfo> {
  const names = [...BRANDING_FIELDS, ...SYSTEM_INFO_SETTINGS];
  const settings = await readConfig(db, names);
  const info: SystemInfo = {
    ...(Object.fromEntries(names.map((n) => [n, settings.get(n) ?? ''])) as Record<
      (typeof names)[number],
      string
    >),
    theme_color: '',
  };
  const domain = host ? await findActiveDomain(db, host) : undefined;
  if (domain) {
    for (const field of BRANDING_FIELDS) {
      // police_record is a 0/1 switch the domain always decides; other fields override when set.
      if (field === 'police_record' || domain[field] !== '') info[field] = domain[field];
    }
    // The show flags too are the domain's own decision.
    for (const flag of DOMAIN_SHOW_FLAGS) info[flag] = String(domain[flag]);
    info.theme_color = domain.theme_color;
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
