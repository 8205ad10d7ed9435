import { z } from 'zod';
import { displayName, emailText, text } from './text';
import { mobileRule, passwordRule, usernameRule } from './auth';
import type { ValidationMessageId } from './messages';

/**
 * Customers: partners, merchants and agents under `/provider_service`, and the user
 * picker `/platform/platform_user_list`. Shared by the server (validation) and the console (types,
 * form rules). Times are epoch milliseconds; money is a 2-decimal string (docs/domain.md §2).
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/** user_type of the customers: 1 partner, 2 merchant, 3 agent. */
export const CUSTOMER_TYPES = [1, 2, 3] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
/** User status: 1 normal, 0 disabled. */
export const CUSTOMER_STATUSES = [0, 1] as const;
/** Partner tier: 1 OEM with its own domain, 2 ordinary. */
export const SERVICE_TYPES = [1, 2] as const;

/** Columns the list may be sorted by (anything else is refused). */
export const CUSTOMER_SORTS = [
  'id',
  'created_at',
  'username',
  'name',
  'money',
  'digital_man_seconds',
  'voice_clone_count',
  'image_clone_count',
  'merchant_count',
  'child_count',
  'last_login_at',
  'expire_at',
] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

const MAX_ID = Number.MAX_SAFE_INTEGER;
const MAX_TIME = 8_640_000_000_000_000; // the largest JS Date
/** 100 000 000.00: more than any opening balance a form should carry. */
export const MAX_TRIAL_CENTS = 10_000_000_000;

/** Query strings send '' for an empty filter: it counts as absent. */
const blank = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional()).optional();

/** An id: a positive integer, or its digits (query strings, form values). */
export const idRule = (id: ValidationMessageId) =>
  z
    .union([z.number(msg(id)), text(id).regex(/^\d{1,16}$/, msg(id))], msg(id))
    .pipe(
      z.coerce.number<string | number>(msg(id)).int(msg(id)).positive(msg(id)).max(MAX_ID, msg(id)),
    );

/** A small set of integers, given as a number or its digits. */
const intChoice = <const T extends readonly number[]>(values: T, id: ValidationMessageId) =>
  z
    .union([z.number(msg(id)), text(id).regex(/^-?\d{1,3}$/, msg(id))], msg(id))
    .pipe(z.coerce.number<string | number>(msg(id)))
    .refine((n): n is T[number] => values.includes(n), msg(id)) as unknown as z.ZodType<
    T[number],
    string | number
  >;

/** Epoch milliseconds, as a number or its digits. */
const timeRule = z
  .union([
    z.number(msg('validation.invalid')),
    text('validation.invalid').regex(/^\d{1,16}$/, msg('validation.invalid')),
  ])
  .pipe(
    z.coerce
      .number<string | number>(msg('validation.invalid'))
      .int(msg('validation.invalid'))
      .min(0, msg('validation.invalid'))
      .max(MAX_TIME, msg('validation.invalid')),
  );

const flag = z.union([z.literal(0), z.literal(1)], msg('validation.invalid'));

// ---------------------------------------------------------------------------------------------
// GET /provider_service

/**
 * The customer list. `created_from` / `created_to` are epoch milliseconds, a half-open range
 * `created_from <= created_at < created_to` (the console sends the viewer's day boundaries).
 * `pid` lists the direct children in the tree (docs/domain.md §1: partner → agent → merchant): a
 * merchant's parent is its agent when it has one, else its partner; an agent's is its partner.
 */
export const customerListQuery = z
  .strictObject({
    user_type: intChoice(CUSTOMER_TYPES, 'validation.userType'),
    keyword: blank(text('validation.invalid').trim().max(64, msg('validation.tooLong'))),
    status: blank(intChoice(CUSTOMER_STATUSES, 'validation.invalid')),
    service_id: blank(idRule('validation.partnerRequired')),
    agent_id: blank(idRule('validation.invalid')),
    pid: blank(idRule('validation.invalid')),
    created_from: blank(timeRule),
    created_to: blank(timeRule),
    sort: blank(z.enum(CUSTOMER_SORTS, msg('validation.invalid'))),
    order: blank(z.enum(['asc', 'desc'], msg('validation.invalid'))),
    page: blank(
      z.coerce
        .number(msg('validation.invalid'))
        .int(msg('validation.invalid'))
        .min(1, msg('validation.invalid'))
        .max(1_000_000, msg('validation.invalid')),
    ),
    limit: blank(
      z.coerce
        .number(msg('validation.invalid'))
        .int(msg('validation.invalid'))
        .min(1, msg('validation.invalid'))
        .max(100, msg('validation.invalid')),
    ),
  })
  .refine(
    (q) =>
      q.created_from === undefined || q.created_to === undefined || q.created_from <= q.created_to,
    { message: 'validation.dateRange', path: ['created_to'] },
  );
export type CustomerListQuery = z.input<typeof customerListQuery>;
export type CustomerListFilter = z.output<typeof customerListQuery>;

/** One row of the customer list (and the reply of every customer mutation). */
export const customerRowSchema = z.object({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  nickname: z.string(),
  /** '' when none. */
  mobile: z.string(),
  email: z.string(),
  user_type: z.number(),
  /** The parent in the tree: a merchant's agent when it has one, else its partner. */
  pid: z.number(),
  /** Name (or account when it has no name) of the parent; '' for none. */
  parent_name: z.string(),
  /** The root partner (a partner's own id). */
  service_id: z.number(),
  service_name: z.string(),
  agent_id: z.number().nullable(),
  agent_name: z.string(),
  status: z.number(),
  money: z.string(),
  digital_man_seconds: z.number(),
  voice_clone_count: z.number(),
  image_clone_count: z.number(),
  /** Partners: merchants in the subtree; agents: merchants referred; merchants: 0. */
  merchant_count: z.number(),
  /** -1 = unlimited (partners). */
  merchant_count_limit: z.number(),
  /** Children in the tree (as listed with `pid`). */
  child_count: z.number(),
  /** '' when none. */
  service_prefix_no: z.string(),
  service_type: z.number(),
  can_transfer_money: z.number(),
  can_transfer_digital_man: z.number(),
  can_transfer_digital_voice: z.number(),
  show_clip_menu: z.number(),
  open_oem: z.number(),
  digital_man_money_exchange_num: z.string(),
  digital_voice_money_exchange_num: z.string(),
  mini_appid: z.string(),
  expire_at: z.number().nullable(),
  remark: z.string(),
  created_at: z.number(),
  last_login_at: z.number().nullable(),
});
export type CustomerRow = z.infer<typeof customerRowSchema>;

export const customerPageSchema = z.object({
  list: z.array(customerRowSchema),
  total: z.number(),
});
export type CustomerPage = z.infer<typeof customerPageSchema>;

// ---------------------------------------------------------------------------------------------
// Form fields

export const servicePrefixRule = text('validation.servicePrefixNo')
  .trim()
  .regex(/^[A-Za-z0-9]{2,6}$/, msg('validation.servicePrefixNo'))
  // Card numbers start with it: stored and compared in upper case.
  .transform((s) => s.toUpperCase());

export const merchantCountLimitRule = z
  .number(msg('validation.merchantCountLimit'))
  .int(msg('validation.merchantCountLimit'))
  .min(-1, msg('validation.merchantCountLimit'))
  .max(1_000_000, msg('validation.merchantCountLimit'));

/** '' (inherit the platform's price) or a price with at most 4 decimals. */
export const priceOverrideRule = text('validation.invalid')
  .trim()
  .regex(/^(\d{1,9}(\.\d{1,4})?)?$/, msg('validation.invalid'));

/** An opening balance, "12.50"; at most 2 decimals, > 0. */
export const trialMoneyRule = text('validation.amount')
  .trim()
  .regex(/^\d{1,11}(\.\d{1,2})?$/, msg('validation.amount'))
  .transform((s) => {
    const [whole, part = ''] = s.split('.');
    return Number(whole) * 100 + Number(part.padEnd(2, '0'));
  })
  .refine((cents) => cents > 0, msg('validation.amount'))
  .refine((cents) => cents <= MAX_TRIAL_CENTS, msg('validation.amountTooLarge'));

/** '' clears the mobile (none); otherwise an 11-digit number starting with 1. */
const optionalMobile = z.union([z.literal(''), mobileRule], msg('validation.mobile'));

const profileFields = {
  name: displayName({ max: 64, tooLong: 'validation.tooLong', allowEmpty: true }).optional(),
  nickname: displayName({ max: 32, tooLong: 'validation.tooLong', allowEmpty: true }).optional(),
  mobile: optionalMobile.optional(),
  email: z.union([z.literal(''), emailText().max(128, msg('validation.tooLong'))]).optional(),
  remark: text('validation.invalid').max(200, msg('validation.tooLong')).optional(),
  /** Epoch ms; null = never. */
  expire_at: timeRule.nullable().optional(),
  show_clip_menu: flag.optional(),
};

/** Fields only the administrator sets. */
const adminFields = {
  can_transfer_money: flag.optional(),
  can_transfer_digital_man: flag.optional(),
  can_transfer_digital_voice: flag.optional(),
  digital_man_money_exchange_num: priceOverrideRule.optional(),
  digital_voice_money_exchange_num: priceOverrideRule.optional(),
  mini_appid: text('validation.invalid').trim().max(64, msg('validation.tooLong')).optional(),
};

/** Fields of partners only. */
const partnerFields = {
  service_prefix_no: servicePrefixRule.optional(),
  service_type: intChoice(SERVICE_TYPES, 'validation.invalid').optional(),
  merchant_count_limit: merchantCountLimitRule.optional(),
  open_oem: flag.optional(),
};
export const PARTNER_FIELDS = Object.keys(partnerFields) as (keyof typeof partnerFields)[];

/** A field sent for a user type that does not have it reads as an unknown field. */
function notFor(
  ctx: z.RefinementCtx,
  body: Record<string, unknown>,
  fields: readonly string[],
): void {
  for (const field of fields) {
    if (body[field] !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'validation.unknownField', path: [field] });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// POST /provider_service/add (admin)

/**
 * Admin creates a partner (needs `service_prefix_no`), or a merchant / agent under the partner
 * `service_id` (a merchant optionally with the partner's agent `agent_id`).
 */
export const addCustomerBody = z
  .strictObject({
    user_type: intChoice(CUSTOMER_TYPES, 'validation.userType'),
    username: usernameRule,
    password: passwordRule,
    status: intChoice(CUSTOMER_STATUSES, 'validation.invalid').optional(),
    ...profileFields,
    ...adminFields,
    ...partnerFields,
    service_id: idRule('validation.partnerRequired').optional(),
    agent_id: idRule('validation.invalid').nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.user_type === 1) {
      if (body.service_prefix_no === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'validation.servicePrefixNo',
          path: ['service_prefix_no'],
        });
      }
      notFor(ctx, body, ['service_id', 'agent_id']);
    } else {
      if (body.service_id === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'validation.partnerRequired',
          path: ['service_id'],
        });
      }
      notFor(ctx, body, PARTNER_FIELDS);
      if (body.user_type === 3) notFor(ctx, body, ['agent_id']);
    }
  });
export type AddCustomerBody = z.input<typeof addCustomerBody>;
export type AddCustomerData = z.output<typeof addCustomerBody>;

// ---------------------------------------------------------------------------------------------
// POST /provider_service/edit (admin)

/** Admin edits any customer's profile fields and flags; only what is sent changes. */
export const editCustomerBody = z.strictObject({
  id: idRule('validation.user'),
  ...profileFields,
  ...adminFields,
  ...partnerFields,
  /** Merchants: the referring agent (an agent of the same partner), or null for none. */
  agent_id: idRule('validation.invalid').nullable().optional(),
});
export type EditCustomerBody = z.input<typeof editCustomerBody>;
export type EditCustomerData = z.output<typeof editCustomerBody>;

// ---------------------------------------------------------------------------------------------
// POST /provider_service/add_by_service, /edit_by_service (partner)

/**
 * A partner creates a merchant or an agent under itself. `agent_id` (one of its agents) only when
 * the platform's `saler_show` is '1'; `trial_money` (an opening balance paid from the partner's
 * own money) only when `expirence_money_show` is '1'. Both for merchants only.
 */
export const addByServiceBody = z
  .strictObject({
    user_type: intChoice([2, 3] as const, 'validation.userType'),
    username: usernameRule,
    password: passwordRule,
    status: intChoice(CUSTOMER_STATUSES, 'validation.invalid').optional(),
    ...profileFields,
    agent_id: idRule('validation.invalid').nullable().optional(),
    trial_money: blank(trialMoneyRule),
  })
  .superRefine((body, ctx) => {
    if (body.user_type === 3) notFor(ctx, body, ['agent_id', 'trial_money']);
  });
export type AddByServiceBody = z.input<typeof addByServiceBody>;
export type AddByServiceData = z.output<typeof addByServiceBody>;

/** A partner edits one of its merchants or agents; only what is sent changes. */
export const editByServiceBody = z.strictObject({
  id: idRule('validation.user'),
  ...profileFields,
  agent_id: idRule('validation.invalid').nullable().optional(),
});
export type EditByServiceBody = z.input<typeof editByServiceBody>;
export type EditByServiceData = z.output<typeof editByServiceBody>;

// ---------------------------------------------------------------------------------------------
// POST /provider_service/edit_account (admin, or the user's partner)

/**
 * Account name, password reset and enable/disable by an ancestor. A new password or a disable
 * ends the user's sessions.
 */
export const editAccountBody = z
  .strictObject({
    id: idRule('validation.user'),
    username: usernameRule.optional(),
    password: passwordRule.optional(),
    status: intChoice(CUSTOMER_STATUSES, 'validation.invalid').optional(),
  })
  .refine(
    (b) => b.username !== undefined || b.password !== undefined || b.status !== undefined,
    msg('validation.nothingToChange'),
  );
export type EditAccountBody = z.input<typeof editAccountBody>;
export type EditAccountData = z.output<typeof editAccountBody>;

// ---------------------------------------------------------------------------------------------
// POST /provider_service/edit_type (admin)

/**
 * Changes a customer's user_type; refused while it has users under it. A partner becoming a
 * merchant or agent needs the partner `service_id` it moves under; a merchant or agent may be
 * moved to another partner with it too (its agent link is then dropped).
 */
export const editTypeBody = z
  .strictObject({
    id: idRule('validation.user'),
    user_type: intChoice(CUSTOMER_TYPES, 'validation.userType'),
    service_id: idRule('validation.partnerRequired').optional(),
  })
  .superRefine((body, ctx) => {
    if (body.user_type === 1) notFor(ctx, body, ['service_id']);
  });
export type EditTypeBody = z.input<typeof editTypeBody>;
export type EditTypeData = z.output<typeof editTypeBody>;

// ---------------------------------------------------------------------------------------------
// POST /provider_service/delete (admin, or the user's partner) — our own call

/** Soft delete: only with all four balances at zero and no users under it. */
export const deleteCustomerBody = z.strictObject({ id: idRule('validation.user') });
export type DeleteCustomerBody = z.input<typeof deleteCustomerBody>;

// GET /provider_service/used_service_prefix_no_list → string[]

export const usedPrefixesSchema = z.array(z.string());

// ---------------------------------------------------------------------------------------------
// GET /platform/platform_user_list (picker)

/** Users the caller may pick (admin: anyone but itself; partner: its subtree). */
export const platformUserListQuery = z.strictObject({
  user_type: blank(intChoice([0, 1, 2, 3] as const, 'validation.userType')),
  keyword: blank(text('validation.invalid').trim().max(64, msg('validation.tooLong'))),
  page: blank(
    z.coerce
      .number(msg('validation.invalid'))
      .int(msg('validation.invalid'))
      .min(1, msg('validation.invalid'))
      .max(1_000_000, msg('validation.invalid')),
  ),
  limit: blank(
    z.coerce
      .number(msg('validation.invalid'))
      .int(msg('validation.invalid'))
      .min(1, msg('validation.invalid'))
      .max(50, msg('validation.invalid')),
  ),
});
export type PlatformUserListQuery = z.input<typeof platformUserListQuery>;
export type PlatformUserListFilter = z.output<typeof platformUserListQuery>;

export const platformUserRowSchema = z.object({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  nickname: z.string(),
  mobile: z.string(),
  user_type: z.number(),
  service_id: z.number(),
  status: z.number(),
});
export type PlatformUserRow = z.infer<typeof platformUserRowSchema>;

export const platformUserPageSchema = z.object({
  list: z.array(platformUserRowSchema),
  total: z.number(),
});
export type PlatformUserPage = z.infer<typeof platformUserPageSchema>;
