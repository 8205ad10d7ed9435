import { z } from 'zod';
import { displayName, multilineText, text } from './text';
import type { ValidationMessageId } from './messages';
import { parseAmount } from './money';

/**
 * Recharge packages and orders (docs/domain.md §6). Money crosses the API as a 2-decimal
 * string ("12.50"; a JSON number is accepted on input) and lives in the database as integer
 * cents. Times are epoch milliseconds.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/** Package status: 1 on sale, 0 off sale. */
export const PACKAGE_STATUSES = [0, 1] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/** Payment methods. `sandbox`: the embedded test provider (no real money moves). */
export const PAY_WAYS = ['sandbox'] as const;
export type PayWay = (typeof PAY_WAYS)[number];

/** Order status; "closed" is also shown for a pending order past its `expires_at`. */
export const PAY_STATUSES = ['pending', 'paid', 'closed', 'refunded'] as const;
export type PayStatus = (typeof PAY_STATUSES)[number];

/** An unpaid order closes this long after it was created. */
export const ORDER_TTL_MS = 30 * 60_000;

export const PACKAGE_NAME_MAX = 30;
export const PACKAGE_DESCRIPTION_MAX = 200;
export const PACKAGE_SORT_MAX = 999_999;

const MAX_ID = Number.MAX_SAFE_INTEGER;

/** Query strings send '' for an empty filter: it counts as absent. */
const blank = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional()).optional();

/** An id: a positive integer, or its digits (query strings, form values). */
const idRule = (id: ValidationMessageId) =>
  z
    .union([z.number(msg(id)), text(id).regex(/^\d{1,16}$/, msg(id))], msg(id))
    .pipe(
      z.coerce.number<string | number>(msg(id)).int(msg(id)).positive(msg(id)).max(MAX_ID, msg(id)),
    );

const statusRule = z
  .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], msg('validation.invalid'))
  .transform((v) => Number(v) as PackageStatus);

/**
 * A money amount of a package field as cents: a string or JSON number, at most 2 decimals, up to
 * 100 000 000.00; `allowZero` for the gift. Any failure gives the field's own message.
 */
const centsRule = (id: ValidationMessageId, allowZero = false) =>
  z.union([text(id), z.number(msg(id))], msg(id)).transform((value, ctx) => {
    const text = String(value).trim();
    if (allowZero && /^0{1,16}(\.0{1,2})?$/.test(text)) return 0;
    const cents = parseAmount('money', value);
    if (typeof cents === 'string') {
      ctx.addIssue({ code: 'custom', message: id });
      return z.NEVER;
    }
    return cents;
  });

const nameRule = displayName({ max: PACKAGE_NAME_MAX, message: 'validation.packageName' });
const sortRule = z
  .number(msg('validation.sort'))
  .int(msg('validation.sort'))
  .min(0, msg('validation.sort'))
  .max(PACKAGE_SORT_MAX, msg('validation.sort'));
const descriptionRule = multilineText('validation.invalid')
  .trim()
  .max(PACKAGE_DESCRIPTION_MAX, msg('validation.tooLong'));

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
/** Epoch milliseconds (the console converts the viewer's dates). */
const time = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(0, msg('validation.invalid'))
  .max(8_640_000_000_000_000, msg('validation.invalid'));

// ---------------------------------------------------------------------------------------------
// Packages

/**
 * GET /recharge_package/list. Admin: every package (on and off sale) with the filters; partner and
 * merchant: the packages on sale (`status` is ignored). Sorted by `sort`, then id.
 */
export const packageListQuery = z.strictObject({
  /** Part of the name. */
  name: blank(text('validation.invalid').trim().max(PACKAGE_NAME_MAX, msg('validation.tooLong'))),
  status: blank(statusRule),
  page: blank(page),
  limit: blank(limit),
});
export type PackageListQuery = z.input<typeof packageListQuery>;
export type PackageListFilter = z.output<typeof packageListQuery>;

/** POST /recharge_package/add. */
export const packageAddBody = z.strictObject({
  name: nameRule,
  /** What the buyer pays, CNY. */
  price: centsRule('validation.price'),
  /** Money credited to the buyer's balance. */
  money: centsRule('validation.packageMoney'),
  /** Extra money credited on top (default 0). */
  gift_money: centsRule('validation.giftMoney', true).optional(),
  /** Ascending; default 0. */
  sort: sortRule.optional(),
  /** Default 1 (on sale). */
  status: statusRule.optional(),
  description: descriptionRule.optional(),
});
export type PackageAddBody = z.input<typeof packageAddBody>;
export type PackageAddInput = z.output<typeof packageAddBody>;

/** POST /recharge_package/edit: the fields sent change, the others stay. */
export const packageEditBody = z
  .strictObject({
    id: idRule('validation.package'),
    name: nameRule.optional(),
    price: centsRule('validation.price').optional(),
    money: centsRule('validation.packageMoney').optional(),
    gift_money: centsRule('validation.giftMoney', true).optional(),
    sort: sortRule.optional(),
    status: statusRule.optional(),
    description: descriptionRule.optional(),
  })
  .refine((b) => Object.entries(b).some(([k, v]) => k !== 'id' && v !== undefined), {
    message: 'validation.nothingToChange',
  });
export type PackageEditBody = z.input<typeof packageEditBody>;
export type PackageEditInput = z.output<typeof packageEditBody>;

/**
 * POST /recharge_package/sort: package ids in their new order (each once); the first gets sort 1,
 * the next 2, … Packages not listed keep their sort. The console sends the whole list.
 */
export const packageSortBody = z.strictObject({
  ids: z
    .array(idRule('validation.packageIds'), msg('validation.packageIds'))
    .min(1, msg('validation.packageIds'))
    .max(1000, msg('validation.packageIds'))
    .refine((ids) => new Set(ids).size === ids.length, msg('validation.packageIds')),
});
export type PackageSortBody = z.input<typeof packageSortBody>;

/** POST /recharge_package/set_status. */
export const packageStatusBody = z.strictObject({
  id: idRule('validation.package'),
  status: statusRule,
});
export type PackageStatusBody = z.input<typeof packageStatusBody>;

/** POST /recharge_package/delete (soft: orders keep their package's name). */
export const packageDeleteBody = z.strictObject({ id: idRule('validation.package') });
export type PackageDeleteBody = z.input<typeof packageDeleteBody>;

export interface RechargePackage {
  id: number;
  name: string;
  /** 2-decimal strings. */
  price: string;
  money: string;
  gift_money: string;
  sort: number;
  status: PackageStatus;
  description: string;
  created_at: number;
  updated_at: number;
}

// ---------------------------------------------------------------------------------------------
// Orders

export const orderNoRule = text('validation.orderNo')
  .trim()
  .regex(/^[A-Za-z0-9]{1,40}$/, msg('validation.orderNo'));

/** POST /recharge_order/create (partner, merchant). */
export const orderCreateBody = z.strictObject({
  package_id: idRule('validation.package'),
  pay_way: z.enum(PAY_WAYS, msg('validation.payWay')),
});
export type OrderCreateBody = z.input<typeof orderCreateBody>;

export interface OrderCreateReply {
  order_no: string;
  package_name: string;
  /** To pay, CNY; money and gift credited once paid. */
  amount: string;
  money: string;
  gift_money: string;
  pay_way: PayWay;
  pay_status: PayStatus;
  /** Open it (a new tab) to pay; relative to the server's origin for the sandbox. */
  pay_url: string;
  /** The order closes unpaid at this time. */
  expires_at: number;
  created_at: number;
}

/** GET /recharge_order/detail: one order in the caller's scope (poll it while paying). */
export const orderDetailQuery = z.strictObject({ order_no: orderNoRule });
export type OrderDetailQuery = z.input<typeof orderDetailQuery>;

/**
 * GET /recharge_order/list (admin: all; partner: its subtree, itself included). `order_no`
 * matches the start of the number; `keyword` part of the buyer's account, name or mobile;
 * `start` ≤ created_at ≤ `end`.
 */
export const orderListQuery = z
  .strictObject({
    order_no: blank(
      text('validation.orderNo')
        .trim()
        .regex(/^[A-Za-z0-9]{1,40}$/, msg('validation.orderNo')),
    ),
    user_id: blank(idRule('validation.user')),
    keyword: blank(text('validation.invalid').trim().max(64, msg('validation.tooLong'))),
    pay_status: blank(z.enum(PAY_STATUSES, msg('validation.invalid'))),
    start: blank(time),
    end: blank(time),
    page: blank(page),
    limit: blank(limit),
  })
  .refine((q) => q.start === undefined || q.end === undefined || q.start <= q.end, {
    message: 'validation.dateRange',
    path: ['end'],
  });
export type OrderListQuery = z.input<typeof orderListQuery>;
export type OrderListFilter = z.output<typeof orderListQuery>;

export interface RechargeOrder {
  id: number;
  order_no: string;
  user_id: number;
  username: string;
  /** The buyer's name ('' when none). */
  name: string;
  /** The buyer's root partner. */
  service_id: number;
  package_id: number;
  package_name: string;
  amount: string;
  money: string;
  gift_money: string;
  pay_way: string;
  /** As the buyer sees it now: a pending order past `expires_at` is "closed". */
  pay_status: PayStatus;
  transaction_id: string | null;
  paid_at: number | null;
  closed_at: number | null;
  expires_at: number;
  created_at: number;
}

export interface ListReply<T> {
  list: T[];
  total: number;
}
