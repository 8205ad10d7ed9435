import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { CONTROL_CHARS_MESSAGE } from './text';

/**
 * The system init settings (`/account/system-init`, admin; docs/domain.md §System init): the
 * vendors' settings in groups, each field plain (read back as it is) or secret (write-only: read
 * back only as its state). Stored in the sealed settings store under the integration kind and
 * name given here (server/modules/init-config), read by the integrations at the time of use.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

export const INIT_CONFIG_GROUPS = [
  'wechat_pay',
  'mini_program',
  'storage',
  'douyin',
  'sms',
  'ai_text',
] as const;
export type InitConfigGroup = (typeof INIT_CONFIG_GROUPS)[number];

/**
 * How a field is entered and checked: `text` (a pattern), `url` (http or https), `int` (a whole
 * number in a range), `secret` (write-only text), `file` (a PEM file sent to upload_cert;
 * write-only as well).
 */
export type InitFieldType = 'text' | 'url' | 'int' | 'secret' | 'file';

export interface InitFieldSpec {
  key: string;
  type: InitFieldType;
  /** The integration kind and field name it is stored under (server side). */
  kind: string;
  name: string;
  /** text and secret: what the whole value must match. */
  pattern?: RegExp;
  /** int: the range. */
  min?: number;
  max?: number;
}

const f = (
  key: string,
  type: InitFieldType,
  kind: string,
  name: string,
  rule: Partial<InitFieldSpec> = {},
): InitFieldSpec => ({ key, type, kind, name, ...rule });

/** A secret pasted from a vendor's console: printable ASCII without spaces, at most 512. */
const SECRET = /^[\x21-\x7e]{1,512}$/;

export const INIT_CONFIG_FIELDS: Readonly<Record<InitConfigGroup, readonly InitFieldSpec[]>> = {
  wechat_pay: [
    f('mch_id', 'text', 'payment', 'wechat_mch_id', { pattern: /^\d{8,12}$/ }),
    // The APIv3 key is 32 characters exactly (WeChat Pay's merchant console).
    f('apiv3_key', 'secret', 'payment', 'wechat_apiv3_key', { pattern: /^[A-Za-z0-9]{32}$/ }),
    f('serial_no', 'text', 'payment', 'wechat_serial_no', { pattern: /^[0-9A-Fa-f]{8,40}$/ }),
    f('private_key', 'file', 'payment', 'wechat_private_key'),
    f('certificate', 'file', 'payment', 'wechat_certificate'),
  ],
  mini_program: [
    f('appid', 'text', 'mini-program', 'appid', { pattern: /^wx[0-9a-f]{16}$/ }),
    f('app_secret', 'secret', 'mini-program', 'app_secret', { pattern: SECRET }),
  ],
  storage: [
    f('endpoint', 'url', 'storage', 'endpoint'),
    f('region', 'text', 'storage', 'region', { pattern: /^[a-z0-9-]{1,32}$/ }),
    f('bucket', 'text', 'storage', 'bucket', { pattern: /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/ }),
    f('access_key', 'text', 'storage', 'access_key', { pattern: /^[\x21-\x7e]{1,128}$/ }),
    f('secret_key', 'secret', 'storage', 'secret_key', { pattern: SECRET }),
    f('cdn_base', 'url', 'storage', 'cdn_base'),
  ],
  douyin: [
    f('client_key', 'text', 'social', 'douyin_client_key', { pattern: /^[A-Za-z0-9_]{1,64}$/ }),
    f('client_secret', 'secret', 'social', 'douyin_client_secret', { pattern: SECRET }),
    f('redirect_uri', 'url', 'social', 'douyin_redirect_uri'),
  ],
  sms: [
    f('endpoint', 'url', 'sms', 'endpoint'),
    f('access_key_id', 'text', 'sms', 'access_key_id', { pattern: /^[\x21-\x7e]{1,128}$/ }),
    f('access_key_secret', 'secret', 'sms', 'access_key_secret', { pattern: SECRET }),
    f('sign_name', 'text', 'sms', 'sign_name', { pattern: /^[^\s].{0,19}$/u }),
    f('template_code', 'text', 'sms', 'template_code', { pattern: /^[A-Za-z0-9_]{1,64}$/ }),
  ],
  ai_text: [
    f('base_url', 'url', 'ai-text', 'base_url'),
    f('api_key', 'secret', 'ai-text', 'api_key', { pattern: SECRET }),
    f('model', 'text', 'ai-text', 'model', { pattern: /^[A-Za-z0-9._:/-]{1,100}$/ }),
    f('timeout_seconds', 'int', 'ai-text', 'timeout_seconds', { min: 1, max: 120 }),
  ],
};

export const isWriteOnly = (field: InitFieldSpec) =>
  field.type === 'secret' || field.type === 'file';

/** The field of a group by key, or undefined. */
export function initField(group: InitConfigGroup, key: string): InitFieldSpec | undefined {
  return INIT_CONFIG_FIELDS[group].find((field) => field.key === key);
}

/**
 * Why a value does not fit its field (a validation message id), or undefined when it does. An
 * empty value is always allowed: for a secret it means "unchanged", for a plain field "not set
 * here" (the environment's default applies).
 */
export function initValueProblem(
  field: InitFieldSpec,
  value: string,
): ValidationMessageId | undefined {
  if (value === '') return undefined;
  switch (field.type) {
    case 'file':
      return 'validation.initConfigFile';
    case 'url':
      if (value.length > 500 || !/^https?:\/\/[^/\s?#]+[^\s]*$/i.test(value)) {
        return 'validation.initConfigUrl';
      }
      return undefined;
    case 'int': {
      if (!/^\d{1,9}$/.test(value)) return 'validation.initConfigRange';
      const n = Number(value);
      return n < (field.min ?? 0) || n > (field.max ?? Infinity)
        ? 'validation.initConfigRange'
        : undefined;
    }
    default:
      return field.pattern && !field.pattern.test(value)
        ? 'validation.initConfigFormat'
        : undefined;
  }
}

const group = z.enum(INIT_CONFIG_GROUPS, msg('validation.initConfigGroup'));
const value = z.union([z.string(msg('validation.invalid')), z.number()]);
const MAX_VALUE = 4096;
// eslint-disable-next-line no-control-regex -- the rule is about control characters
const CONTROL = /[\u0000-\u001f]/;

/** GET /init_config/get_config: one group, or every group. */
export const initConfigQuery = z.strictObject({ group: group.optional() });

/**
 * POST /init_config/set_config: the group's values by key (trimmed; a secret's empty value leaves
 * it unchanged, a plain field's empty value removes it) and the keys to clear. Each value is
 * checked by its field's type; the issue's path starts with the key (the message names it).
 */
export const initConfigSetBody = z
  .strictObject({
    group,
    values: z.record(z.string(), value),
    clear: z.array(z.string().max(40)).max(20).default([]),
  })
  .transform((body) => ({
    ...body,
    values: Object.fromEntries(
      Object.entries(body.values).map(([k, v]) => [k, String(v).trim()]),
    ) as Record<string, string>,
  }))
  .superRefine((body, ctx) => {
    for (const [key, v] of Object.entries(body.values)) {
      const field = initField(body.group, key);
      // The key first in the path: the message names the field (not `values`).
      const problem = !field
        ? 'validation.initConfigKey'
        : CONTROL.test(v)
          ? CONTROL_CHARS_MESSAGE
          : v.length > MAX_VALUE
            ? 'validation.tooLong'
            : initValueProblem(field, v);
      if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem });
    }
    for (const key of body.clear) {
      if (!initField(body.group, key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'validation.initConfigKey' });
      } else if (body.values[key]) {
        // A value and a clear of one key contradict each other.
        ctx.addIssue({ code: 'custom', path: [key], message: 'validation.initConfigClear' });
      }
    }
  });
export type InitConfigSetBody = z.input<typeof initConfigSetBody>;

/** The multipart fields of POST /init_config/upload_cert (then the file). */
export const CERT_KINDS = ['private_key', 'certificate'] as const;
export type CertKind = (typeof CERT_KINDS)[number];
export const certKindSchema = z.strictObject({
  kind: z.enum(CERT_KINDS, msg('validation.initConfigCertKind')),
});
/** A PEM file is small: 16 KB is far more than a 4096-bit key or a certificate needs. */
export const CERT_MAX_BYTES = 16 * 1024;

/** POST /init_config/test. */
export const initConfigTestBody = z.strictObject({ group });

/** A write-only field's state: whether it is set, where from, and when and by whom here. */
export const secretStateSchema = z.object({
  configured: z.boolean(),
  /** Set here (wins), given by the environment, or nowhere (null). */
  source: z.enum(['settings', 'environment']).nullable(),
  /** The last four characters of a secret of 12 characters or more set here (never of a file). */
  last4: z.string().nullable(),
  updated_at: z.number().nullable(),
  /** The username of the admin who set it. */
  updated_by: z.string().nullable(),
});
export type SecretState = z.infer<typeof secretStateSchema>;

/** A group's values: a plain field's value in use ('' when none), a write-only field's state. */
export const initGroupValuesSchema = z.record(z.string(), z.union([z.string(), secretStateSchema]));
export type InitGroupValues = z.infer<typeof initGroupValuesSchema>;

/** GET /init_config/get_config (and the reply of set_config and upload_cert: the group). */
export const initConfigSchema = z.record(z.string(), initGroupValuesSchema);
export type InitConfig = z.infer<typeof initConfigSchema>;

/** POST /init_config/test: the check's outcome and a message in the caller's language. */
export const initConfigTestReply = z.object({ ok: z.boolean(), message: z.string() });
export type InitConfigTestReply = z.infer<typeof initConfigTestReply>;
