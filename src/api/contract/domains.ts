import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { isPlatformImageUrl } from './platform-image-rules';
import { displayName, text } from './text';

/**
 * Domains and their brands (docs/domain.md §12): admin only. A domain belongs to the platform
 * (`owner_id` null) or to a partner; `get_system_info?domain=` answers an enabled domain's brand.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/** Domain status: 1 enabled, 0 disabled (a disabled domain shows the platform's brand). */
export const DOMAIN_STATUSES = [0, 1] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
export type Flag01 = 0 | 1;

export const DOMAIN_NAME_MAX = 30;
export const DOMAIN_COPYRIGHT_MAX = 100;
export const DOMAIN_RECORD_MAX = 50;
export const DOMAIN_MONEY_NAME_MAX = 10;
/** The console's theme colour when a domain sets none (spec §9). */
export const DEFAULT_THEME_COLOR = '#165DFF';
/** The show flags a domain decides for its visitors (spec: branding settings). */
export const DOMAIN_SHOW_FLAGS = [
  'dy_auth_publish_show',
  'expirence_money_show',
  'saler_show',
] as const;
export type DomainShowFlag = (typeof DOMAIN_SHOW_FLAGS)[number];

const MAX_ID = Number.MAX_SAFE_INTEGER;

/** Query strings send '' for an empty filter: it counts as absent. */
const blank = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional()).optional();

const idRule = (id: ValidationMessageId) =>
  z
    .union([z.number(msg(id)), text(id).regex(/^\d{1,16}$/, msg(id))], msg(id))
    .pipe(
      z.coerce.number<string | number>(msg(id)).int(msg(id)).positive(msg(id)).max(MAX_ID, msg(id)),
    );

const flagRule = z
  .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], msg('validation.invalid'))
  .transform((v) => Number(v) as Flag01);

/** One DNS label: letters, digits and inner hyphens, 1–63 characters (after lower-casing). */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOSTNAME = new RegExp(`^(?:${LABEL}\\.)*${LABEL}$`);
/** What a pasted address carries that a hostname must not: a scheme, a path, a query, a port. */
const NOT_BARE = /:\/\/|[/?#:@\\]/;

/**
 * A hostname as typed: trimmed and lower-cased (one trailing dot dropped). A scheme, path, query,
 * port or user part is refused with its own message; so is anything that is not letters, digits,
 * hyphens and dots in labels of 1–63 (an internationalised name is entered as punycode).
 */
export const hostnameRule = text('validation.hostname')
  .trim()
  .toLowerCase()
  .transform((s) => s.replace(/\.$/, ''))
  .check(
    z.refine((s) => !NOT_BARE.test(s), msg('validation.hostnameBare')),
    z.refine((s) => s.length <= 253 && HOSTNAME.test(s), msg('validation.hostname')),
  );

/** The owner: null or 0 for the platform, else a partner's user id (checked by the server). */
const ownerRule = z
  .union(
    [z.null(), z.literal(0), z.literal('0'), idRule('validation.domainOwner')],
    msg('validation.domainOwner'),
  )
  .transform((v) => (v === null || v === 0 || v === '0' ? null : v));

/**
 * A logo or favicon: '' (the platform's) or the address of an image uploaded for it
 * (`POST /upload/platform_image`; docs/domain.md §12): a logo PNG, JPEG or WebP, a favicon PNG or
 * ICO. The server checks that the image exists and was uploaded as one.
 */
const imageRule = (purpose: 'logo' | 'favicon', message: ValidationMessageId) =>
  text(message)
    .trim()
    .check(z.refine((s) => s === '' || isPlatformImageUrl(s, purpose), msg(message)));

const themeColorRule = text('validation.themeColor')
  .trim()
  .check(z.refine((s) => s === '' || /^#[0-9a-fA-F]{6}$/.test(s), msg('validation.themeColor')))
  .transform((s) => s.toLowerCase());

const optionalText = (max: number) =>
  displayName({ max, allowEmpty: true, tooLong: 'validation.tooLong' });

const fields = {
  hostname: hostnameRule,
  owner_id: ownerRule,
  name: displayName({ max: DOMAIN_NAME_MAX, message: 'validation.domainName' }),
  logo: imageRule('logo', 'validation.brandLogo'),
  favicon: imageRule('favicon', 'validation.brandFavicon'),
  copyright: optionalText(DOMAIN_COPYRIGHT_MAX),
  icp_record_number: optionalText(DOMAIN_RECORD_MAX),
  /** Whether the police record shows (0/1), and its number. */
  police_record: flagRule,
  police_record_number: optionalText(DOMAIN_RECORD_MAX),
  money_name: optionalText(DOMAIN_MONEY_NAME_MAX),
  theme_color: themeColorRule,
  dy_auth_publish_show: flagRule,
  expirence_money_show: flagRule,
  saler_show: flagRule,
  status: flagRule,
};

/** POST /domain/add: hostname and name are required; the rest default (owner: platform). */
export const domainAddBody = z.strictObject({
  hostname: fields.hostname,
  owner_id: fields.owner_id.optional(),
  name: fields.name,
  logo: fields.logo.optional(),
  favicon: fields.favicon.optional(),
  copyright: fields.copyright.optional(),
  icp_record_number: fields.icp_record_number.optional(),
  police_record: fields.police_record.optional(),
  police_record_number: fields.police_record_number.optional(),
  money_name: fields.money_name.optional(),
  theme_color: fields.theme_color.optional(),
  dy_auth_publish_show: fields.dy_auth_publish_show.optional(),
  expirence_money_show: fields.expirence_money_show.optional(),
  saler_show: fields.saler_show.optional(),
  status: fields.status.optional(),
});
export type DomainAddBody = z.input<typeof domainAddBody>;
export type DomainAddInput = z.output<typeof domainAddBody>;

/** POST /domain/edit: the fields sent change, the others stay (`status` 0 disables). */
export const domainEditBody = z
  .strictObject({
    id: idRule('validation.domain'),
    ...domainAddBody.partial().shape,
  })
  .refine((b) => Object.entries(b).some(([k, v]) => k !== 'id' && v !== undefined), {
    message: 'validation.nothingToChange',
  });
export type DomainEditBody = z.input<typeof domainEditBody>;
export type DomainEditInput = z.output<typeof domainEditBody>;

/** POST /domain/delete: 1–100 ids, each once. */
export const domainDeleteBody = z.strictObject({
  ids: z
    .array(idRule('validation.domainIds'), msg('validation.domainIds'))
    .min(1, msg('validation.domainIds'))
    .max(100, msg('validation.domainIds'))
    .refine((ids) => new Set(ids).size === ids.length, msg('validation.domainIds')),
});
export type DomainDeleteBody = z.input<typeof domainDeleteBody>;

const page = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(1_000_000, msg('validation.invalid'));
const limit = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(100, msg('validation.invalid'));

/**
 * GET /domain/list: `keyword` matches part of the hostname or the name; `owner_id` 0 lists the
 * platform's domains, a partner's id that partner's. Newest first.
 */
export const domainListQuery = z.strictObject({
  keyword: blank(text('validation.invalid').trim().max(253, msg('validation.tooLong'))),
  owner_id: blank(
    z
      .union(
        [z.literal('0'), z.literal(0), idRule('validation.domainOwner')],
        msg('validation.domainOwner'),
      )
      .transform((v) => Number(v)),
  ),
  page: blank(page),
  limit: blank(limit),
});
export type DomainListQuery = z.input<typeof domainListQuery>;
export type DomainListFilter = z.output<typeof domainListQuery>;

export const domainSchema = z.object({
  id: z.number(),
  hostname: z.string(),
  /** null: the platform's own domain. */
  owner_id: z.number().nullable(),
  /** The owner's display name (a partner's name, else its username); null for the platform. */
  owner_name: z.string().nullable(),
  name: z.string(),
  logo: z.string(),
  favicon: z.string(),
  copyright: z.string(),
  icp_record_number: z.string(),
  police_record: z.union([z.literal(0), z.literal(1)]),
  police_record_number: z.string(),
  money_name: z.string(),
  theme_color: z.string(),
  dy_auth_publish_show: z.union([z.literal(0), z.literal(1)]),
  expirence_money_show: z.union([z.literal(0), z.literal(1)]),
  saler_show: z.union([z.literal(0), z.literal(1)]),
  status: z.union([z.literal(0), z.literal(1)]),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Domain = z.infer<typeof domainSchema>;

export const domainPageSchema = z.object({ list: z.array(domainSchema), total: z.number() });
export type DomainPage = z.infer<typeof domainPageSchema>;

export const domainDeleteReplySchema = z.object({ ids: z.array(z.number()) });
