import {
  OVERRIDABLE_KEYS,
  OVERRIDE_KEYS_SETTING,
  SETTINGS,
  SETTING_BY_KEY,
  ceilingKey,
  floorKey,
  formatSettingUnits,
  normalizeSetting,
  settingUnits,
  type PlatformConfig,
  type SetConfigBody,
  type SettingDef,
  type SettingProblem,
  type SettingView,
} from '../../../src/api/contract/settings';
import type { ConfigPair } from '../../../src/api/contract/system';
import type { AppContext, AuthContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { PLATFORM_DEFAULTS, SYSTEM_INFO_SETTINGS } from './defaults';
import { readConfig } from './repo';

/**
 * Platform settings and partners' price overrides (docs/domain.md §12 "Settings and prices"):
 * the admin edits the platform's values and the limits of overrides; a partner edits the
 * overrides of its own subtree within them; the work of a user is priced with its partner's
 * override when one applies, else with the platform's value, at the moment it is submitted.
 */

/** Who pays the prices of a partner's override: its subtree (`service_id`; a partner's own is its id). */
interface Payer {
  service_id: number;
}

const DEFAULT_OF = new Map(PLATFORM_DEFAULTS.map((d) => [d.name, d.value]));
const def = (key: string): SettingDef => SETTING_BY_KEY.get(key)!;

async function readPartnerOverrides(db: Executor, partnerId: number): Promise<Map<string, string>> {
  if (!(partnerId > 0)) return new Map();
  const rows = await db
    .selectFrom('partner_config')
    .select(['name', 'value'])
    .where('partner_id', '=', partnerId)
    .execute();
  return new Map(rows.map((r) => [r.name, r.value]));
}

/** The admin's limits of overrides: the allowed keys, and per price its floor and ceiling (units). */
interface Limits {
  allowed: ReadonlySet<string>;
  floor(key: string): number;
  ceiling(key: string): number;
}

function limitsOf(platform: ReadonlyMap<string, string>): Limits {
  const allowed = new Set(
    (platform.get(OVERRIDE_KEYS_SETTING) ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter((k) => OVERRIDABLE_KEYS.includes(k)),
  );
  const bound = (key: string, name: string, fallback: number) =>
    settingUnits(def(key), platform.get(name) ?? '') ?? fallback;
  return {
    allowed,
    floor: (key) => bound(key, floorKey(key), def(key).min ?? 0),
    ceiling: (key) => bound(key, ceilingKey(key), def(key).max ?? 0),
  };
}

const LIMIT_KEYS = [
  OVERRIDE_KEYS_SETTING,
  ...OVERRIDABLE_KEYS.flatMap((k) => [floorKey(k), ceilingKey(k)]),
];

async function readPlatform(db: Executor, keys: readonly string[]) {
  const stored = await readConfig(db, [...new Set([...keys, ...LIMIT_KEYS])]);
  const out = new Map<string, string>();
  for (const key of new Set([...keys, ...LIMIT_KEYS])) {
    out.set(key, stored.get(key) ?? DEFAULT_OF.get(key) ?? '');
  }
  return out;
}

/**
 * The value of an overridable price for a payer: its partner's override when the admin allows
 * the key, brought into the admin's current floor and ceiling (limits narrowed after an override
 * was set bind it at once); else the platform's value.
 */
function effectiveOf(
  key: string,
  platform: ReadonlyMap<string, string>,
  overrides: ReadonlyMap<string, string>,
  limits: Limits,
): string {
  const platformValue = platform.get(key) ?? '';
  const override = overrides.get(key);
  if (override === undefined || !limits.allowed.has(key)) return platformValue;
  const units = settingUnits(def(key), override);
  if (units === undefined) return platformValue;
  const clamped = Math.min(Math.max(units, limits.floor(key)), limits.ceiling(key));
  return formatSettingUnits(def(key), clamped);
}

/** The values of `keys` that apply to `payer` (prices with its partner's override). */
export async function settingsFor(
  db: Executor,
  payer: Payer,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const platform = await readPlatform(db, keys);
  const overrides = await readPartnerOverrides(db, Number(payer.service_id));
  const limits = limitsOf(platform);
  return new Map(
    keys.map((key) => [
      key,
      OVERRIDABLE_KEYS.includes(key)
        ? effectiveOf(key, platform, overrides, limits)
        : (platform.get(key) ?? ''),
    ]),
  );
}

/** One price that applies to `payer` (a raw stored string; the caller parses it). */
export async function priceFor(db: Executor, payer: Payer, key: string): Promise<string> {
  return (await settingsFor(db, payer, [key])).get(key) ?? '';
}

const rangeText = (d: SettingDef, units: number | undefined) =>
  units === undefined ? null : formatSettingUnits(d, units);

/** GET /platform/get_platform_config: the admin's view of every setting, or a partner's prices. */
export async function getPlatformConfig(
  ctx: AppContext,
  auth: AuthContext,
): Promise<PlatformConfig> {
  const platform = await readPlatform(
    ctx.db,
    SETTINGS.map((s) => s.key),
  );
  const limits = limitsOf(platform);
  const base = (d: SettingDef) => ({
    key: d.key,
    group: d.group,
    kind: d.kind,
    unit: d.unit,
    options:
      d.kind === 'options'
        ? [...(d.options ?? [])]
        : d.kind === 'keys'
          ? [...OVERRIDABLE_KEYS]
          : null,
    platform_value: platform.get(d.key) ?? '',
  });
  if (auth.role === 'admin') {
    return {
      scope: 'platform',
      settings: SETTINGS.map((d): SettingView => ({
        ...base(d),
        min: rangeText(d, d.min),
        max: rangeText(d, d.max),
        value: platform.get(d.key) ?? '',
        effective: platform.get(d.key) ?? '',
        overridable: !!d.overridable && limits.allowed.has(d.key),
      })),
    };
  }
  const overrides = await readPartnerOverrides(ctx.db, auth.user.id);
  return {
    scope: 'partner',
    settings: SETTINGS.filter((d) => d.overridable).map((d): SettingView => ({
      ...base(d),
      min: rangeText(d, limits.floor(d.key)),
      max: rangeText(d, limits.ceiling(d.key)),
      value: overrides.get(d.key) ?? '',
      effective: effectiveOf(d.key, platform, overrides, limits),
      overridable: limits.allowed.has(d.key),
    })),
  };
}

function problemError(problem: SettingProblem) {
  return problem.id === 'settings.outOfRange'
    ? refuse('settings.outOfRange', { key: problem.key, min: problem.min, max: problem.max })
    : refuse('settings.invalidValue', { key: problem.key });
}

function normalized(d: SettingDef, input: unknown, range?: { min?: number; max?: number }) {
  const result = normalizeSetting(d, input, range);
  if ('problem' in result) throw problemError(result.problem);
  return result.value;
}

/** POST /platform/set_config (admin): platform values; every key checked before any is written. */
async function setPlatformValues(
  ctx: AppContext,
  values: SetConfigBody['values'],
  audit: AuditTrail,
): Promise<void> {
  const next = new Map<string, string>();
  for (const [key, input] of Object.entries(values)) {
    const d = SETTING_BY_KEY.get(key);
    if (!d) throw refuse('settings.unknownKey', { key });
    next.set(key, normalized(d, input));
  }
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const current = await readPlatform(trx, [...next.keys()]);
      const merged = new Map([...current, ...next]);
      const limits = limitsOf(merged);
      for (const key of OVERRIDABLE_KEYS) {
        if (limits.floor(key) > limits.ceiling(key)) {
          throw refuse('settings.floorAboveCeiling', { key });
        }
      }
      const before: Record<string, string> = {};
      const after: Record<string, string> = {};
      const now = ctx.now();
      for (const [key, value] of next) {
        if (current.get(key) === value) continue;
        before[key] = current.get(key) ?? '';
        after[key] = value;
        const d = def(key);
        await trx
          .insertInto('platform_config')
          .values({ name: key, value, group_name: d.group, is_secret: 0, updated_at: now })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
          .execute();
      }
      if (Object.keys(after).length === 0) audit.unchanged();
      else audit.change(before, after);
    },
    { audit },
  );
}

/**
 * POST /platform/set_config (partner): overrides of its subtree's prices, only of the keys the
 * admin allows and within their floor and ceiling; '' removes an override.
 */
async function setPartnerOverrides(
  ctx: AppContext,
  auth: AuthContext,
  values: SetConfigBody['values'],
  audit: AuditTrail,
): Promise<void> {
  const partnerId = auth.user.id;
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const limits = limitsOf(await readPlatform(trx, []));
      const next = new Map<string, string | null>();
      for (const [key, input] of Object.entries(values)) {
        const d = SETTING_BY_KEY.get(key);
        if (!d) throw refuse('settings.unknownKey', { key });
        if (!d.overridable || !limits.allowed.has(key)) {
          throw refuse('settings.notOverridable', { key });
        }
        if (typeof input === 'string' && input.trim() === '') next.set(key, null);
        else {
          next.set(key, normalized(d, input, { min: limits.floor(key), max: limits.ceiling(key) }));
        }
      }
      const current = await readPartnerOverrides(trx, partnerId);
      const before: Record<string, string | null> = {};
      const after: Record<string, string | null> = {};
      const now = ctx.now();
      for (const [key, value] of next) {
        const was = current.get(key) ?? null;
        if (was === value) continue;
        before[key] = was;
        after[key] = value;
        if (value === null) {
          await trx
            .deleteFrom('partner_config')
            .where('partner_id', '=', partnerId)
            .where('name', '=', key)
            .execute();
        } else {
          await trx
            .insertInto('partner_config')
            .values({
              partner_id: partnerId,
              name: key,
              value,
              updated_at: now,
              updated_by: partnerId,
            })
            .onConflict((oc) =>
              oc
                .columns(['partner_id', 'name'])
                .doUpdateSet({ value, updated_at: now, updated_by: partnerId }),
            )
            .execute();
        }
      }
      audit.target(partnerId);
      if (Object.keys(after).length === 0) audit.unchanged();
      else audit.change(before, after);
    },
    { audit },
  );
}

/** POST /platform/set_config: the admin's platform values or a partner's overrides; the new view. */
export async function setConfig(
  ctx: AppContext,
  auth: AuthContext,
  body: SetConfigBody,
  audit: AuditTrail,
): Promise<PlatformConfig> {
  if (auth.role === 'admin') await setPlatformValues(ctx, body.values, audit);
  else await setPartnerOverrides(ctx, auth, body.values, audit);
  return getPlatformConfig(ctx, auth);
}

/**
 * The keys `get_config` answers: the public system-info settings and the catalogue's values
 * (prices as they apply to the caller); the override limits to the admin and partners only.
 */
function readableKeys(auth: AuthContext): ReadonlySet<string> {
  const keys = new Set<string>([...SYSTEM_INFO_SETTINGS]);
  for (const d of SETTINGS) {
    if (d.group !== 'override' || auth.role === 'admin' || auth.role === 'partner') keys.add(d.key);
  }
  return keys;
}

/** GET /platform/get_config?keys=: [{name, value}] of the keys the caller may read. */
export async function getConfig(
  ctx: AppContext,
  auth: AuthContext,
  keys: readonly string[],
): Promise<ConfigPair[]> {
  const readable = readableKeys(auth);
  const wanted = [...new Set(keys)];
  for (const key of wanted) {
    if (!readable.has(key)) throw refuse('settings.unknownKey', { key });
  }
  const values = await settingsFor(ctx.db, auth.user, wanted);
  return wanted.map((name) => ({ name, value: values.get(name) ?? '' }));
}

/** GET /platform/get_single_config?key=: {name, value}. */
export async function getSingleConfig(
  ctx: AppContext,
  auth: AuthContext,
  key: string,
): Promise<ConfigPair> {
  const [pair] = await getConfig(ctx, auth, [key]);
  return pair;
}
