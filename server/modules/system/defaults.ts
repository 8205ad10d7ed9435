import { DEFAULT_STORAGE_QUOTA_BYTES } from '../../../src/api/contract/resources';
import {
  OVERRIDABLE_KEYS,
  OVERRIDE_KEYS_SETTING,
  SETTING_BY_KEY,
  ceilingKey,
  floorKey,
  formatSettingUnits,
} from '../../../src/api/contract/settings';

/**
 * Platform settings every installation has (`platform_config`). Missing keys are added at start-up
 * with these values; existing values are never overwritten. Secrets are write-only (docs/domain.md §12).
 */
export interface ConfigDefault {
  name: string;
  value: string;
  group: string;
  secret?: boolean;
}

export const PLATFORM_DEFAULTS: readonly ConfigDefault[] = [
  // Branding defaults, merged under each domain's own branding.
  { group: 'base', name: 'name', value: '智能短视频平台' },
  { group: 'base', name: 'logo', value: '/logo.svg' },
  { group: 'base', name: 'favicon', value: '/favicon.svg' },
  { group: 'base', name: 'copyright', value: '' },
  { group: 'base', name: 'icp_record_number', value: '' },
  { group: 'base', name: 'police_record', value: '0' },
  { group: 'base', name: 'police_record_number', value: '' },
  { group: 'base', name: 'money_name', value: '余额' },
  // Display switches (get_simple_config?group=show_config).
  { group: 'show_config', name: 'register_open', value: '0' },
  { group: 'show_config', name: 'expirence_money_show', value: '1' },
  { group: 'show_config', name: 'saler_show', value: '1' },
  { group: 'show_config', name: 'money_recharge_exchange_config', value: '1,2,3,4' },
  { group: 'show_config', name: 'VITE_MERCHANT_COUNT_LIMITATION', value: '-1' },
  { group: 'show_config', name: 'dy_auth_publish_show', value: '1' },
  // Prices in money per unit: per digital-human minute, per voice clone, per image clone, per text.
  { group: 'price', name: 'digital_man_money_exchange_num', value: '1' },
  { group: 'price', name: 'digital_voice_money_exchange_num', value: '10' },
  { group: 'price', name: 'image_clone_money_exchange_num', value: '50' },
  { group: 'price', name: 'digital_short_video_text_cost', value: '0.1' },
  // Money per mixed-cut or clip output (docs/domain.md §9); 0 makes them free.
  { group: 'price', name: 'video_output_cost', value: '0.10' },
  // `digital_man` seconds charged per second of digital-human video; 0 makes them free.
  { group: 'price', name: 'digital_man_cost', value: '1' },
  // Upload limits (get_simple_config?group=resource), docs/domain.md §9.
  { group: 'resource', name: 'upload_video_max_mb', value: '500' },
  { group: 'resource', name: 'upload_image_max_mb', value: '10' },
  { group: 'resource', name: 'upload_audio_max_mb', value: '50' },
  { group: 'resource', name: 'upload_video_types', value: 'mp4,mov' },
  { group: 'resource', name: 'upload_image_types', value: 'jpg,png,webp' },
  { group: 'resource', name: 'upload_audio_types', value: 'mp3,wav,m4a' },
  { group: 'resource', name: 'storage_driver', value: 'local' },
  // The storage quota of a user without its own (users.storage_quota_bytes), docs/domain.md §8: 10 GB.
  { group: 'resource', name: 'storage_quota_bytes', value: String(DEFAULT_STORAGE_QUOTA_BYTES) },
  // The admin's limits of partners' price overrides (docs/domain.md §12): no price is
  // overridable until the admin lists it; then between its floor and ceiling (the whole range).
  { group: 'override', name: OVERRIDE_KEYS_SETTING, value: '' },
  ...OVERRIDABLE_KEYS.flatMap((key): ConfigDefault[] => {
    const def = SETTING_BY_KEY.get(key)!;
    return [
      { group: 'override', name: floorKey(key), value: formatSettingUnits(def, def.min ?? 0) },
      { group: 'override', name: ceilingKey(key), value: formatSettingUnits(def, def.max ?? 0) },
    ];
  }),
  // SMS gateway (embedded provider by default).
  { group: 'sms', name: 'sms_provider', value: 'embedded' },
  { group: 'sms', name: 'sms_access_key_secret', value: '', secret: true },
];

/** Branding fields a domain may set over the platform defaults. */
export const BRANDING_FIELDS = [
  'name',
  'logo',
  'favicon',
  'copyright',
  'icp_record_number',
  'police_record',
  'police_record_number',
  'money_name',
] as const;

/** Platform keys of SystemInfo besides branding. */
export const SYSTEM_INFO_SETTINGS = [
  'VITE_MERCHANT_COUNT_LIMITATION',
  'money_recharge_exchange_config',
  'dy_auth_publish_show',
  'digital_short_video_text_cost',
  'digital_voice_money_exchange_num',
  'digital_man_money_exchange_num',
  'image_clone_money_exchange_num',
  'expirence_money_show',
  'saler_show',
  'register_open',
] as const;
