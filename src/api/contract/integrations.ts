import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { text } from './text';

/**
 * The outside services' settings (admin): per integration kind the providers in use and their
 * secret fields, which are write-only — a reply says whether one is set, where from, its last four
 * characters (for a long value), when and by whom, never the value.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/** The kinds of outside service (server/integrations/<kind>/). */
export const INTEGRATION_KINDS = ['payment', 'sms', 'digital-human', 'social', 'ai-text'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

const kind = z.enum(INTEGRATION_KINDS, msg('validation.integrationKind'));
const name = text('validation.secretName').regex(
  /^[a-z][a-z0-9_]{0,39}$/,
  msg('validation.secretName'),
);

/** POST /integration/set_secret: an empty value is refused (clearing is its own call). */
export const secretSetBody = z.strictObject({
  kind,
  name,
  value: text('validation.secretValue')
    .trim()
    .min(1, msg('validation.secretValue'))
    .max(4096, msg('validation.tooLong')),
});
export type SecretSetBody = z.input<typeof secretSetBody>;

/** POST /integration/clear_secret: the field falls back to its environment variable, if any. */
export const secretClearBody = z.strictObject({ kind, name });
export type SecretClearBody = z.input<typeof secretClearBody>;

export const secretFieldSchema = z.object({
  name: z.string(),
  /** The provider that reads it (`http`). */
  provider: z.string(),
  /** The environment variable used when no value is set here. */
  env: z.string().nullable(),
  configured: z.boolean(),
  /** Where the value in use comes from: set here (wins), the environment, or nowhere (null). */
  source: z.enum(['settings', 'environment']).nullable(),
  /** The last four characters of a value set here of 12 characters or more. */
  last4: z.string().nullable(),
  updated_at: z.number().nullable(),
  /** The username of the admin who set it. */
  updated_by: z.string().nullable(),
});
export type SecretField = z.infer<typeof secretFieldSchema>;

export const integrationSchema = z.object({
  kind,
  /** The providers in use (payment may offer several pay ways; none when turned off). */
  providers: z.array(z.string()),
  secrets: z.array(secretFieldSchema),
});
export type Integration = z.infer<typeof integrationSchema>;

/** GET /integration/list. */
export const integrationListSchema = z.object({ list: z.array(integrationSchema) });
export type IntegrationList = z.infer<typeof integrationListSchema>;
