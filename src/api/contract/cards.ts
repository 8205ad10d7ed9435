import { z } from 'zod';
import { text } from './text';
import type { ValidationMessageId } from './messages';
import { MAX_UNITS, parseAmount } from './money';

/**
 * Recharge cards (卡密, docs/domain.md §5) under `/recharge_card`: payloads, queries and replies, shared
 * by the server (validation) and the console (types, form rules). Times are epoch milliseconds.
 *
 * Face values cross the API in the unit a person types and reads on a card:
 * - money: a decimal string with at most 2 places ("50", "12.50");
 * - digital_man: whole MINUTES ("30" = 30 minutes; stored as 1800 seconds);
 * - digital_voice: a whole count of voice clones.
 * Every reply's `face_value` uses the same unit. `price` is display only, money (may be "0").
 */

const msg = (id: ValidationMessageId) => ({ message: id });

export const CARD_ASSETS = ['money', 'digital_man', 'digital_voice'] as const;
export type CardAsset = (typeof CARD_ASSETS)[number];
export const cardAssetSchema = z.enum(CARD_ASSETS, msg('validation.asset'));

/** Card status: 0 unused, 1 used, 2 void. "expired" is computed from expire_at (unused cards). */
export const CARD_STATUSES = [0, 1, 2] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];
/** The list's status filter: a stored status, or `expired` (unused and past its expiry). */
export const CARD_STATUS_FILTERS = ['0', '1', '2', 'expired'] as const;
export type CardStatusFilter = (typeof CARD_STATUS_FILTERS)[number];

/** Cards per `add` call. */
export const MAX_CARD_QUANTITY = 1000;
/** Cards per selection (`ids`) of transfer, remark, delete and export. */
export const MAX_CARD_IDS = 1000;
/** Seconds per unit of a digital-human face value (cards are sold by the minute). */
export const CARD_UNIT_SECONDS = 60;

/** The stored face value (cents, seconds, count) of a typed one, or what is wrong with it. */
export function parseFaceValue(asset: CardAsset, input: unknown): number | ValidationMessageId {
  if (asset !== 'digital_man') return parseAmount(asset, input);
  const minutes = parseAmount(asset, input);
  if (typeof minutes === 'string') return minutes;
  if (minutes > MAX_UNITS.digital_man / CARD_UNIT_SECONDS) return 'validation.amountTooLarge';
  return minutes * CARD_UNIT_SECONDS;
}

/** A stored face value in the API's unit ("12.50", minutes, count). */
export function formatFaceValue(asset: CardAsset, units: number): string {
  if (asset === 'digital_man') {
    const minutes = units / CARD_UNIT_SECONDS;
    return Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(2);
  }
  if (asset === 'digital_voice') return String(units);
  const abs = Math.abs(units);
  return `${units < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "0", "12", "12.5" → cents; undefined when not an amount with at most 2 places. */
export function parsePrice(input: unknown): number | undefined {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input : '';
  const match = /^(\d{1,11})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Query strings and form values send '' for an empty field: it counts as absent. */
const blank = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

const MAX_TIME = 8_640_000_000_000_000;
/** Epoch milliseconds, as a number or its digits. */
const time = z
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

/** An id: a positive integer, or its digits. */
const id = (message: ValidationMessageId) =>
  z
    .union([z.number(msg(message)), text(message).regex(/^\d{1,16}$/, msg(message))])
    .pipe(
      z.coerce
        .number<string | number>(msg(message))
        .int(msg(message))
        .positive(msg(message))
        .max(Number.MAX_SAFE_INTEGER, msg(message)),
    );
const cardId = id('validation.cardSelection');
const userId = id('validation.user');

/** A list of card ids (1–1000, duplicates dropped); a single id is accepted too. */
const cardIds = z
  .union([cardId, z.array(cardId, msg('validation.cardSelection'))])
  .transform((v) => [...new Set(Array.isArray(v) ? v : [v])])
  .pipe(
    z
      .array(z.number())
      .min(1, msg('validation.cardSelection'))
      .max(MAX_CARD_IDS, msg('validation.tooManyCards')),
  );
const batchNo = text('validation.invalid')
  .trim()
  .min(1, msg('validation.cardSelection'))
  .max(40, msg('validation.tooLong'));
const remark = text('validation.invalid').trim().max(200, msg('validation.tooLong'));
/** An expiry: epoch ms, or null / absent for "never". The server refuses one not in the future. */
const expireAt = z.union([z.null(), time], msg('validation.invalid'));

/** Exactly one of `ids` and `batch_no` selects the cards of a call. */
function oneSelection(body: { ids?: number[]; batch_no?: string }, ctx: z.RefinementCtx): void {
  if ((body.ids === undefined) === (body.batch_no === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'validation.cardSelection', path: ['ids'] });
  }
}

/**
 * POST /recharge_card/add: a batch of `quantity` cards of one face value. A partner pays
 * face_value × quantity from its own balance of the asset; an admin's cards are minted by the
 * platform. Accepts an `Idempotency-Key` header. Reply: {@link AddCardsReply}.
 */
export const addCardsBody = z
  .strictObject({
    asset: cardAssetSchema,
    face_value: z.union([text(), z.number()], msg('validation.amount')),
    quantity: z
      .number(msg('validation.cardQuantity'))
      .int(msg('validation.cardQuantity'))
      .min(1, msg('validation.cardQuantity'))
      .max(MAX_CARD_QUANTITY, msg('validation.cardQuantity')),
    expire_at: blank(expireAt),
    price: blank(z.union([text(), z.number()], msg('validation.cardPrice'))),
    remark: remark.optional(),
  })
  .transform((body, ctx) => {
    const units = parseFaceValue(body.asset, body.face_value);
    if (typeof units === 'string') {
      ctx.addIssue({ code: 'custom', message: units, path: ['face_value'] });
      return z.NEVER;
    }
    const price = body.price === undefined ? 0 : parsePrice(body.price);
    if (price === undefined) {
      ctx.addIssue({ code: 'custom', message: 'validation.cardPrice', path: ['price'] });
      return z.NEVER;
    }
    return {
      asset: body.asset,
      units,
      quantity: body.quantity,
      expire_at: body.expire_at ?? null,
      price,
      remark: body.remark ?? '',
    };
  });
export type AddCardsBody = z.input<typeof addCardsBody>;
export type AddCardsInput = z.output<typeof addCardsBody>;

export interface AddCardsReply {
  batch_no: string;
  count: number;
}

/**
 * POST /recharge_card/transfer_card: cards the caller holds (unused, unexpired) to a descendant
 * (admin: any user but an admin). `ids`: every listed card must qualify, or nothing moves.
 * `batch_no`: every card of the batch the caller holds that qualifies. Reply: {@link CountReply}.
 */
export const transferCardsBody = z
  .strictObject({
    ids: cardIds.optional(),
    batch_no: batchNo.optional(),
    to_user_id: userId,
  })
  .superRefine(oneSelection);
export type TransferCardsBody = z.input<typeof transferCardsBody>;

/**
 * POST /recharge_card/use_card: redeems a card for the caller. The password is matched without
 * regard to case, spaces or dashes. Reply: {@link UseCardReply}.
 */
export const useCardBody = z.strictObject({
  card_no: text('validation.cardNo')
    .trim()
    .min(1, msg('validation.cardNo'))
    .max(40, msg('validation.cardNo')),
  card_pwd: text('validation.cardPwd')
    .transform((v) => v.replace(/[\s-]/g, '').toUpperCase())
    .pipe(text().min(1, msg('validation.cardPwd')).max(40, msg('validation.cardPwd'))),
});
export type UseCardBody = z.input<typeof useCardBody>;

export interface UseCardReply {
  id: number;
  card_no: string;
  asset: CardAsset;
  /** In the card's unit (see the top of this file). */
  face_value: string;
}

/**
 * POST /recharge_card/remark_card: sets the remark of the caller's role on one card (`id`) or
 * several (`ids`): an admin writes `remark_admin`, a partner `remark_owner`. Reply: CountReply.
 */
export const remarkCardsBody = z
  .strictObject({
    id: cardId.optional(),
    ids: cardIds.optional(),
    remark,
  })
  .superRefine((body, ctx) => {
    if ((body.id === undefined) === (body.ids === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'validation.cardSelection', path: ['ids'] });
    }
  })
  .transform(({ id: one, ids, remark: text }) => ({ ids: ids ?? [one as number], remark: text }));
export type RemarkCardsBody = z.input<typeof remarkCardsBody>;

/**
 * POST /recharge_card/edit_card: voids (2) or restores (0) an unused card and/or sets its expiry
 * (null = never). Used cards cannot change. Reply: the card's {@link CardRow}.
 */
export const editCardBody = z
  .strictObject({
    id: cardId,
    status: z.union([z.literal(0), z.literal(2)], msg('validation.invalid')).optional(),
    expire_at: expireAt.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.status === undefined && body.expire_at === undefined) {
      ctx.addIssue({ code: 'custom', message: 'validation.nothingToChange', path: [] });
    }
  });
export type EditCardBody = z.input<typeof editCardBody>;
export type EditCardParams = z.output<typeof editCardBody>;

/**
 * POST /recharge_card/batch_del: soft-deletes unused and void cards. `ids`: every listed card must
 * be unused or void, or nothing is deleted. `batch_no`: the batch's unused and void cards (used
 * ones stay). The face value of each deleted card goes back to whoever paid it (the partner) or
 * to the platform (minted cards). Reply: {@link CountReply}.
 */
export const deleteCardsBody = z
  .strictObject({
    ids: cardIds.optional(),
    batch_no: batchNo.optional(),
  })
  .superRefine(oneSelection);
export type DeleteCardsBody = z.input<typeof deleteCardsBody>;

export interface CountReply {
  count: number;
}

/** The filters of the card list and of an export. */
const filterShape = {
  card_no: blank(text('validation.invalid').trim().max(40, msg('validation.tooLong'))),
  batch_no: blank(text('validation.invalid').trim().max(40, msg('validation.tooLong'))),
  asset: blank(cardAssetSchema),
  status: blank(
    z
      .union([text(), z.number()], msg('validation.invalid'))
      .transform(String)
      .pipe(z.enum(CARD_STATUS_FILTERS, msg('validation.invalid'))),
  ),
  owner_id: blank(userId),
  used_by: blank(userId),
  /** Created at or after / at or before (epoch ms). */
  start: blank(time),
  end: blank(time),
};

function dateRange(body: { start?: number; end?: number }, ctx: z.RefinementCtx): void {
  if (body.start !== undefined && body.end !== undefined && body.start > body.end) {
    ctx.addIssue({ code: 'custom', message: 'validation.dateRange', path: ['start'] });
  }
}

const pageRule = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(1_000_000, msg('validation.invalid'))
  .default(1);
/** Rows per page of a list: 1–`max`, 20 when absent. */
const limitRule = (max: number, message: ValidationMessageId = 'validation.invalid') =>
  z.coerce
    .number(msg(message))
    .int(msg(message))
    .min(1, msg(message))
    .max(max, msg(message))
    .default(20);
/**
 * Rows per page of the card list: up to 1000, so a person can work through a whole `add` batch
 * (at most 1000 cards) on one page; the console virtualises such pages. Other lists: 100.
 */
export const MAX_CARD_PAGE_SIZE = 1000;

/**
 * GET /recharge_card/card_list. Scope: admin – every card; partner – its cards (`service_id`)
 * and cards it holds; merchant, agent – cards they hold or redeemed. Newest first.
 * Reply: {@link CardListReply}.
 */
export const cardListQuery = z
  .strictObject({
    ...filterShape,
    page: pageRule,
    limit: limitRule(MAX_CARD_PAGE_SIZE, 'validation.cardPageSize'),
  })
  .superRefine(dateRange);
export type CardListQuery = z.input<typeof cardListQuery>;
export type CardListParams = z.output<typeof cardListQuery>;
export type CardFilter = Omit<CardListParams, 'page' | 'limit'>;

/** GET /recharge_card/can_operate_card_list: unused, unexpired cards the caller holds (pickers). */
export const canOperateQuery = z.strictObject({
  asset: filterShape.asset,
  batch_no: filterShape.batch_no,
  card_no: filterShape.card_no,
  page: pageRule,
  limit: limitRule(100),
});
export type CanOperateQuery = z.input<typeof canOperateQuery>;
export type CanOperateParams = z.output<typeof canOperateQuery>;

/**
 * POST /recharge_card/export_ticket: the filters of the list, or a selection (`ids`). Reply:
 * {@link ExportTicketReply}; the console then opens `url` (GET /recharge_card/export_data?ticket=…)
 * within 60 seconds, once.
 */
export const exportTicketBody = z
  .strictObject({ ...filterShape, ids: cardIds.optional() })
  .superRefine(dateRange);
export type ExportTicketBody = z.input<typeof exportTicketBody>;
export type ExportTicketParams = z.output<typeof exportTicketBody>;

export interface ExportTicketReply {
  ticket: string;
  expires_at: number;
  /** The download's path, e.g. `/api/v1/recharge_card/export_data?ticket=…`. */
  url: string;
}

/** GET /recharge_card/export_data: a CSV download; the ticket is the credential. */
export const exportDataQuery = z.strictObject({
  ticket: text('validation.invalid').regex(/^[A-Za-z0-9_-]{43}$/, msg('validation.invalid')),
});

export interface CardRow {
  id: number;
  card_no: string;
  /** In full for the card's holder; otherwise masked (`ABCD********WXYZ`). */
  card_pwd: string;
  /** Whether `card_pwd` is masked (the console offers "copy" only when it is not). */
  pwd_masked: boolean;
  batch_no: string;
  asset: CardAsset;
  /** In the card's unit (see the top of this file). */
  face_value: string;
  /** Display only, money. */
  price: string;
  status: CardStatus;
  /** Past its expiry (a stored status stays; an expired unused card cannot be redeemed). */
  expired: boolean;
  expire_at: number | null;
  service_id: number;
  creator_id: number;
  creator_username: string;
  owner_id: number;
  owner_username: string;
  used_by: number | null;
  used_by_username: string | null;
  used_at: number | null;
  /** The admin's remark: shown to admins only (others get ''). */
  remark_admin: string;
  remark_owner: string;
  created_at: number;
  updated_at: number;
}

export interface CardListReply {
  list: CardRow[];
  total: number;
}
