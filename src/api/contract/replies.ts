import { z } from 'zod';
import type { LoginReply } from './auth';
import {
  CARD_ASSETS,
  CARD_STATUSES,
  type AddCardsReply,
  type CardListReply,
  type CardRow,
  type CountReply,
  type ExportTicketReply,
  type UseCardReply,
} from './cards';
import type { Account, DashboardData, DashboardSeries, MenuItem, SeriesPoint } from './dashboard';
import type { JobStats } from './jobs';
import {
  ASSETS,
  EXCHANGE_TARGETS,
  LEDGER_TYPES,
  type ExchangeReply,
  type ListReply,
  type MoneyLogRow,
  type TransferRecord,
} from './money';
import {
  PACKAGE_STATUSES,
  PAY_STATUSES,
  PAY_WAYS,
  type OrderCreateReply,
  type RechargeOrder,
  type RechargePackage,
} from './recharge';
import type { ConfigPair, SystemInfo } from './system';

/**
 * The `data` of every successful reply whose contract is a TypeScript interface, as a zod schema:
 * the server's tests check each reply against it and the API reference (docs/api.md) is
 * generated from it. The checks at the end keep each schema and its interface the same type.
 */

const page = <T extends z.ZodType>(row: T) => z.object({ list: z.array(row), total: z.number() });
const time = z.number();
const nullableTime = z.number().nullable();

/** `data: null`: a call that answers only with its message. */
export const noData = z.null();

export const loginReplySchema = z.object({
  userinfo: z.object({
    token: z.string(),
    accountId: z.number(),
    user_type: z.number(),
    username: z.string(),
  }),
});

export const accountSchema = z.object({
  money: z.string(),
  digital_man_seconds: z.number(),
  voice_clone_count: z.number(),
  image_clone_count: z.number(),
});

export const dashboardSchema = accountSchema.extend({
  partners: z.number(),
  agents: z.number(),
  merchants: z.number(),
  users_today: z.number(),
});

export const seriesPointSchema = z.object({
  date: z.string(),
  new_users: z.number(),
  recharge: z.string(),
  spend_video: z.string(),
  spend_digital_human: z.number(),
  spend_clones: z.number(),
  videos: z.number(),
  posts: z.number(),
});

export const dashboardSeriesSchema = z.object({
  days: z.union([z.literal(7), z.literal(30)]),
  points: z.array(seriesPointSchema),
});

export const menuItemSchema = z
  .object({
    name: z.string(),
    path: z.string(),
    titleId: z.string(),
    icon: z.string().optional(),
    hidden: z.boolean(),
    activeMenu: z.string().optional(),
    get children(): z.ZodArray<typeof menuItemSchema> {
      return z.array(menuItemSchema);
    },
  })
  .meta({ id: 'MenuItem' });
export const menuSchema = z.array(menuItemSchema);

export const systemInfoSchema = z.object({
  name: z.string(),
  logo: z.string(),
  favicon: z.string(),
  copyright: z.string(),
  icp_record_number: z.string(),
  police_record: z.string(),
  police_record_number: z.string(),
  money_name: z.string(),
  VITE_MERCHANT_COUNT_LIMITATION: z.string(),
  money_recharge_exchange_config: z.string(),
  dy_auth_publish_show: z.string(),
  digital_short_video_text_cost: z.string(),
  digital_voice_money_exchange_num: z.string(),
  digital_man_money_exchange_num: z.string(),
  image_clone_money_exchange_num: z.string(),
  expirence_money_show: z.string(),
  saler_show: z.string(),
  register_open: z.string(),
  theme_color: z.string(),
});
export const configPairsSchema = z.array(z.object({ name: z.string(), value: z.string() }));

// ---- money

export const transferRecordSchema = z.object({
  id: z.number(),
  transfer_no: z.string(),
  from_user_id: z.number(),
  from_username: z.string(),
  from_name: z.string(),
  to_user_id: z.number(),
  to_username: z.string(),
  to_name: z.string(),
  asset: z.enum(ASSETS),
  amount: z.string(),
  from_before: z.string().nullable(),
  from_after: z.string().nullable(),
  to_before: z.string().nullable(),
  to_after: z.string().nullable(),
  remark: z.string(),
  operator_id: z.number(),
  operator_username: z.string(),
  created_at: time,
});
export const transferRecordPageSchema = page(transferRecordSchema);

export const transferConfigSchema = z.object({
  id: z.number(),
  can_transfer_money: z.number(),
  can_transfer_digital_man: z.number(),
  can_transfer_digital_voice: z.number(),
});

export const exchangeReplySchema = z.object({
  asset: z.enum(EXCHANGE_TARGETS),
  quantity: z.number(),
  cost: z.string(),
  money: z.string(),
  balance: z.string(),
});

export const moneyLogRowSchema = z.object({
  id: z.number(),
  user_id: z.number(),
  username: z.string(),
  asset: z.enum(ASSETS),
  type: z.enum(LEDGER_TYPES),
  change: z.string(),
  before: z.string(),
  after: z.string(),
  memo: z.string(),
  related_type: z.string().nullable(),
  related_id: z.number().nullable(),
  operator_id: z.number().nullable(),
  created_at: time,
});
export const moneyLogPageSchema = page(moneyLogRowSchema);

// ---- cards

export const addCardsReplySchema = z.object({ batch_no: z.string(), count: z.number() });
export const countReplySchema = z.object({ count: z.number() });
export const useCardReplySchema = z.object({
  id: z.number(),
  card_no: z.string(),
  asset: z.enum(CARD_ASSETS),
  face_value: z.string(),
});
export const exportTicketReplySchema = z.object({
  ticket: z.string(),
  expires_at: time,
  url: z.string(),
});
export const cardRowSchema = z.object({
  id: z.number(),
  card_no: z.string(),
  card_pwd: z.string(),
  pwd_masked: z.boolean(),
  batch_no: z.string(),
  asset: z.enum(CARD_ASSETS),
  face_value: z.string(),
  price: z.string(),
  status: z.union(CARD_STATUSES.map((s) => z.literal(s))),
  expired: z.boolean(),
  expire_at: nullableTime,
  service_id: z.number(),
  creator_id: z.number(),
  creator_username: z.string(),
  owner_id: z.number(),
  owner_username: z.string(),
  used_by: z.number().nullable(),
  used_by_username: z.string().nullable(),
  used_at: nullableTime,
  remark_admin: z.string(),
  remark_owner: z.string(),
  created_at: time,
  updated_at: time,
});
export const cardPageSchema = page(cardRowSchema);

// ---- recharge

export const rechargePackageSchema = z.object({
  id: z.number(),
  name: z.string(),
  price: z.string(),
  money: z.string(),
  gift_money: z.string(),
  sort: z.number(),
  status: z.union(PACKAGE_STATUSES.map((s) => z.literal(s))),
  description: z.string(),
  created_at: time,
  updated_at: time,
});
export const rechargePackagePageSchema = page(rechargePackageSchema);
export const deletedPackageSchema = z.object({ id: z.number() });
export const sortedPackagesSchema = z.object({ ids: z.array(z.number()) });

export const orderCreateReplySchema = z.object({
  order_no: z.string(),
  package_name: z.string(),
  amount: z.string(),
  money: z.string(),
  gift_money: z.string(),
  pay_way: z.enum(PAY_WAYS),
  pay_status: z.enum(PAY_STATUSES),
  pay_url: z.string(),
  expires_at: time,
  created_at: time,
});

export const rechargeOrderSchema = z.object({
  id: z.number(),
  order_no: z.string(),
  user_id: z.number(),
  username: z.string(),
  name: z.string(),
  service_id: z.number(),
  package_id: z.number(),
  package_name: z.string(),
  amount: z.string(),
  money: z.string(),
  gift_money: z.string(),
  pay_way: z.string(),
  pay_status: z.enum(PAY_STATUSES),
  transaction_id: z.string().nullable(),
  paid_at: nullableTime,
  closed_at: nullableTime,
  expires_at: time,
  created_at: time,
});
export const rechargeOrderPageSchema = page(rechargeOrderSchema);

/** POST /pay/notify/<pay_way>: what the provider is told (it only needs `code: 1`). */
export const notificationReplySchema = z.object({
  order_no: z.string(),
  pay_status: z.enum(['paid', 'refunded']),
  credited: z.boolean(),
});

// ---- jobs

const jobCount = z.number().int().nonnegative();
export const jobStatsSchema = z.object({
  adapter: z.enum(['embedded', 'bullmq']),
  kinds: z.array(
    z.object({
      kind: z.string(),
      waiting: jobCount,
      delayed: jobCount,
      active: jobCount,
      completed: jobCount,
      failed: jobCount,
      cancelled: jobCount,
    }),
  ),
});

// ---- each schema is its interface (a compile error here names the one that drifted)

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
export type ReplySchemasMatchTheirTypes = [
  Expect<Same<z.infer<typeof loginReplySchema>, LoginReply>>,
  Expect<Same<z.infer<typeof accountSchema>, Account>>,
  Expect<Same<z.infer<typeof dashboardSchema>, DashboardData>>,
  Expect<Same<z.infer<typeof seriesPointSchema>, SeriesPoint>>,
  Expect<Same<z.infer<typeof dashboardSeriesSchema>, DashboardSeries>>,
  Expect<Same<z.infer<typeof menuItemSchema>, MenuItem>>,
  Expect<Same<z.infer<typeof systemInfoSchema>, SystemInfo>>,
  Expect<Same<z.infer<typeof configPairsSchema>, ConfigPair[]>>,
  Expect<Same<z.infer<typeof transferRecordSchema>, TransferRecord>>,
  Expect<Same<z.infer<typeof transferRecordPageSchema>, ListReply<TransferRecord>>>,
  Expect<Same<z.infer<typeof exchangeReplySchema>, ExchangeReply>>,
  Expect<Same<z.infer<typeof moneyLogRowSchema>, MoneyLogRow>>,
  Expect<Same<z.infer<typeof addCardsReplySchema>, AddCardsReply>>,
  Expect<Same<z.infer<typeof countReplySchema>, CountReply>>,
  Expect<Same<z.infer<typeof useCardReplySchema>, UseCardReply>>,
  Expect<Same<z.infer<typeof exportTicketReplySchema>, ExportTicketReply>>,
  Expect<Same<z.infer<typeof cardRowSchema>, CardRow>>,
  Expect<Same<z.infer<typeof cardPageSchema>, CardListReply>>,
  Expect<Same<z.infer<typeof rechargePackageSchema>, RechargePackage>>,
  Expect<Same<z.infer<typeof orderCreateReplySchema>, OrderCreateReply>>,
  Expect<Same<z.infer<typeof rechargeOrderSchema>, RechargeOrder>>,
  Expect<Same<z.infer<typeof jobStatsSchema>, JobStats>>,
];
