import { z } from 'zod';
import { text } from './text';

/** GET /platform/get_system_info?domain=HOST: the host's branding merged over platform defaults. */
export const systemInfoQuery = z.strictObject({
  domain: text().trim().max(253, { message: 'validation.tooLong' }).optional(),
});

export interface SystemInfo {
  name: string;
  logo: string;
  favicon: string;
  copyright: string;
  icp_record_number: string;
  police_record: string;
  police_record_number: string;
  money_name: string;
  VITE_MERCHANT_COUNT_LIMITATION: string;
  money_recharge_exchange_config: string;
  dy_auth_publish_show: string;
  digital_short_video_text_cost: string;
  digital_voice_money_exchange_num: string;
  digital_man_money_exchange_num: string;
  image_clone_money_exchange_num: string;
  expirence_money_show: string;
  saler_show: string;
  /** '1' when the login page offers merchant sign-up. */
  register_open: string;
  /** The domain's theme colour (#rrggbb), or '' (the console's default). */
  theme_color: string;
}

export const SIMPLE_CONFIG_GROUPS = ['show_config', 'resource'] as const;
export type SimpleConfigGroup = (typeof SIMPLE_CONFIG_GROUPS)[number];

/** GET /platform/get_simple_config?group=show_config,resource → [{name, value}] (non-secret keys only). */
export const simpleConfigQuery = z.strictObject({
  group: text('validation.required')
    .max(200, { message: 'validation.tooLong' })
    .transform((s) =>
      s
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.enum(SIMPLE_CONFIG_GROUPS, { message: 'validation.invalid' }))
        .min(1, { message: 'validation.required' }),
    ),
});

export interface ConfigPair {
  name: string;
  value: string;
}
