import { z } from 'zod';
import { text } from './text';

/**
 * The platform settings the admin edits on `/account/settings`, and the prices a partner may
 * override for its own subtree (docs/domain.md §12 "Settings and prices"). One catalogue for the
 * server (validation, the price that applies) and the console (groups, units, ranges).
 */

export const SETTING_GROUPS = ['price', 'quota', 'exchange', 'limit', 'show', 'override'] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

/**
 * How a value is written: `money` a decimal with up to 2 places ("0.10"), `int` a whole number,
 * `flag` "0" or "1", `options` a comma list of distinct options, `keys` a comma list of
 * overridable price keys.
 */
export type SettingKind = 'money' | 'int' | 'flag' | 'options' | 'keys';

/** What one unit of a value is (the console names it in the viewer's language). */
export type SettingUnit =
  | 'money_per_output'
  | 'seconds_per_second'
  | 'money_per_minute'
  | 'money_per_voice_clone'
  | 'money_per_image_clone'
  | 'money_per_text'
  | 'bytes'
  | 'merchants';

export interface SettingDef {
  key: string;
  group: SettingGroup;
  kind: SettingKind;
  unit: SettingUnit | null;
  /** The range in the kind's integer units (cents for money); none for flags and lists. */
  min?: number;
  max?: number;
  /** The options of an `options` list. */
  options?: readonly string[];
  /** A price a partner may override for its subtree (when the admin allows it). */
  overridable?: boolean;
}

const MONEY_MAX = 1_000_000; // 10 000.00
const money = (key: string, unit: SettingUnit, overridable = true): SettingDef => ({
  key,
  group: 'price',
  kind: 'money',
  unit,
  min: 0,
  max: MONEY_MAX,
  overridable,
});

const PRICES: readonly SettingDef[] = [
  money('video_output_cost', 'money_per_output'),
  {
    key: 'digital_man_cost',
    group: 'price',
    kind: 'int',
    unit: 'seconds_per_second',
    min: 0,
    max: 100,
    overridable: true,
  },
  money('digital_man_money_exchange_num', 'money_per_minute'),
  money('digital_voice_money_exchange_num', 'money_per_voice_clone'),
  // Not overridable: the console shows the image clone price from the platform's system info.
  money('image_clone_money_exchange_num', 'money_per_image_clone', false),
  money('digital_short_video_text_cost', 'money_per_text', false),
];

/** The prices a partner may override (when the admin lists them in `partner_override_keys`). */
export const OVERRIDABLE_KEYS: readonly string[] = PRICES.filter((p) => p.overridable).map(
  (p) => p.key,
);

/** The admin's limits of a partner's override of `key`: a floor and a ceiling. */
export const floorKey = (key: string) => `${key}_floor`;
export const ceilingKey = (key: string) => `${key}_ceiling`;
export const OVERRIDE_KEYS_SETTING = 'partner_override_keys';

export const SETTINGS: readonly SettingDef[] = [
  ...PRICES,
  {
    key: 'storage_quota_bytes',
    group: 'quota',
    kind: 'int',
    unit: 'bytes',
    min: 0,
    max: 1024 ** 4 * 100, // 100 TB
  },
  {
    key: 'money_recharge_exchange_config',
    group: 'exchange',
    kind: 'options',
    unit: null,
    options: ['1', '2', '3', '4'],
  },
  {
    key: 'VITE_MERCHANT_COUNT_LIMITATION',
    group: 'limit',
    kind: 'int',
    unit: 'merchants',
    min: -1,
    max: 1_000_000,
  },
  ...['register_open', 'expirence_money_show', 'saler_show', 'dy_auth_publish_show'].map(
    (key): SettingDef => ({ key, group: 'show', kind: 'flag', unit: null }),
  ),
  { key: OVERRIDE_KEYS_SETTING, group: 'override', kind: 'keys', unit: null },
  ...PRICES.filter((p) => p.overridable).flatMap((p): SettingDef[] => [
    { ...p, key: floorKey(p.key), group: 'override', overridable: false },
    { ...p, key: ceilingKey(p.key), group: 'override', overridable: false },
  ]),
];

export const SETTING_BY_KEY: ReadonlyMap<string, SettingDef> = new Map(
  SETTINGS.map((s) => [s.key, s]),
);

/** A value in integer units ("0.10" → 10 cents) when it is a well-formed number of its kind. */
export function settingUnits(def: SettingDef, value: string): number | undefined {
  const pattern = def.kind === 'money' ? /^(\d{1,12})(?:\.(\d{1,2}))?$/ : /^(-?\d{1,15})$/;
  const match = pattern.exec(value.trim());
  if (!match) return undefined;
  const units =
    def.kind === 'money'
      ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
      : Number(match[1]);
  return Number.isSafeInteger(units) ? units : undefined;
}

/** Integer units written the way the setting stores them ("10" cents → "0.10"). */
export function formatSettingUnits(def: SettingDef, units: number): string {
  if (def.kind !== 'money') return String(units);
  return `${Math.floor(units / 100)}.${String(units % 100).padStart(2, '0')}`;
}

/** Why a value is refused: the message id and its parameters; undefined when it is valid. */
export type SettingProblem =
  | { id: 'settings.invalidValue'; key: string }
  | { id: 'settings.outOfRange'; key: string; min: string; max: string };

/**
 * A value checked against its definition and written the way it is stored (money with 2 places,
 * lists without blanks or repeats, in the options' order), or the problem.
 */
export function normalizeSetting(
  def: SettingDef,
  input: unknown,
  range: { min?: number; max?: number } = def,
): { value: string } | { problem: SettingProblem } {
  const raw = typeof input === 'number' ? String(input) : typeof input === 'string' ? input : null;
  const invalid = { problem: { id: 'settings.invalidValue', key: def.key } as const };
  if (raw === null) return invalid;
  const trimmed = raw.trim();
  switch (def.kind) {
    case 'flag':
      return trimmed === '0' || trimmed === '1' ? { value: trimmed } : invalid;
    case 'options':
    case 'keys': {
      const allowed = def.kind === 'options' ? (def.options ?? []) : OVERRIDABLE_KEYS;
      const items = trimmed === '' ? [] : trimmed.split(',').map((s) => s.trim());
      if (items.some((i) => !allowed.includes(i)) || new Set(items).size !== items.length) {
        return invalid;
      }
      return { value: allowed.filter((a) => items.includes(a)).join(',') };
    }
    default: {
      const units = settingUnits(def, trimmed);
      if (units === undefined) return invalid;
      const min = range.min ?? Number.MIN_SAFE_INTEGER;
      const max = range.max ?? Number.MAX_SAFE_INTEGER;
      if (units < min || units > max) {
        return {
          problem: {
            id: 'settings.outOfRange',
            key: def.key,
            min: formatSettingUnits(def, min),
            max: formatSettingUnits(def, max),
          },
        };
      }
      return { value: formatSettingUnits(def, units) };
    }
  }
}

// ---- calls

/** POST /platform/set_config {values: {key: value}}: 1–50 keys; a partner's '' removes its override. */
export const setConfigBody = z.strictObject({
  values: z
    .record(
      text().max(64, { message: 'validation.tooLong' }),
      z.union([text().max(200, { message: 'validation.tooLong' }), z.number()]),
      { message: 'validation.invalid' },
    )
    .refine((v) => Object.keys(v).length >= 1, { message: 'validation.required' })
    .refine((v) => Object.keys(v).length <= 50, { message: 'validation.tooLong' }),
});
export type SetConfigBody = z.infer<typeof setConfigBody>;

/** GET /platform/get_config?keys=a,b → [{name, value}]. */
export const getConfigQuery = z.strictObject({
  keys: text('validation.required')
    .max(2000, { message: 'validation.tooLong' })
    .transform((s) =>
      s
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string()).min(1, { message: 'validation.required' })),
});

/** GET /platform/get_single_config?key=a → {name, value}. */
export const getSingleConfigQuery = z.strictObject({
  key: text('validation.required').trim().min(1, { message: 'validation.required' }).max(64, {
    message: 'validation.tooLong',
  }),
});

/**
 * One setting as `/platform/get_platform_config` shows it. Admin: `value` is the platform's,
 * `min`/`max` its range, `overridable` whether partners may override it. Partner (prices only):
 * `value` is its override ('' none), `min`/`max` the admin's floor and ceiling, `platform_value`
 * the platform's, `effective` the price its subtree pays.
 */
export const settingViewSchema = z.object({
  key: z.string(),
  group: z.enum(SETTING_GROUPS),
  kind: z.enum(['money', 'int', 'flag', 'options', 'keys']),
  unit: z.string().nullable(),
  min: z.string().nullable(),
  max: z.string().nullable(),
  options: z.array(z.string()).nullable(),
  value: z.string(),
  platform_value: z.string(),
  effective: z.string(),
  overridable: z.boolean(),
});
export type SettingView = z.infer<typeof settingViewSchema>;

export const platformConfigSchema = z.object({
  scope: z.enum(['platform', 'partner']),
  settings: z.array(settingViewSchema),
});
export type PlatformConfig = z.infer<typeof platformConfigSchema>;
