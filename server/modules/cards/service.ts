import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Insertable } from 'kysely';
import {
  CARD_ASSETS,
  formatFaceValue,
  type AddCardsInput,
  type AddCardsReply,
  type CanOperateParams,
  type CardAsset,
  type CardFilter,
  type CardListParams,
  type CardListReply,
  type CardRow,
  type CountReply,
  type EditCardParams,
  type ExportTicketParams,
  type ExportTicketReply,
  type UseCardReply,
} from '../../../src/api/contract/cards';
import type { Locale } from '../../../src/api/contract/messages';
import { roleOf } from '../../../src/api/contract/roles';
import type { AppContext, AuthContext } from '../../context';
import { USER_STATUS, type RechargeCardsTable } from '../../db/schema';
import { AppError, refuse } from '../../http/errors';
import { API_PREFIX } from '../../http/policy';
import { t } from '../../i18n';
import { writeAudit } from '../audit/repo';
import { releaseAttempt, reserveAttempt, type ThrottleRule } from '../auth/repo';
import {
  lockUsers,
  post,
  postSystem,
  runMoney,
  type Idempotency,
  type Trx,
} from '../ledger/service';
import { findUserById } from '../users/repo';
import { reachesUser } from '../users/scope';
import {
  exportCards,
  findCardByNo,
  findCardById,
  findCardRow,
  insertCards,
  listCards,
  listOperableCards,
  lockSelection,
  reserveSequence,
  type CardViewer,
  type ExportCard,
  type Selection,
} from './repo';

const MINUTE = 60_000;
const DAY_OFFSET = 8 * 3_600_000; // Asia/Shanghai, UTC+8, no DST

/** Wrong card numbers or passwords per user: 10 within 15 minutes lock redeeming for 15 minutes. */
export const REDEEM_RULE: ThrottleRule = { limit: 10, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/** How long an export ticket lives. */
export const EXPORT_TICKET_MS = 60_000;

const PWD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789';
const PWD_LENGTH = 16;

const viewerOf = (auth: AuthContext): CardViewer => ({ role: auth.role, id: auth.user.id });

/** yyMMdd of the business day (Asia/Shanghai). */
function businessDay(now: number): string {
  return new Date(now + DAY_OFFSET).toISOString().slice(2, 10).replaceAll('-', '');
}

export function newCardPassword(): string {
  let pwd = '';
  for (let i = 0; i < PWD_LENGTH; i += 1) pwd += PWD_ALPHABET[randomInt(PWD_ALPHABET.length)];
  return pwd;
}

function samePassword(stored: string, typed: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(typed);
  return a.length === b.length && timingSafeEqual(a, b);
}

const remarkColumn = (auth: AuthContext) =>
  auth.role === 'admin' ? ('remark_admin' as const) : ('remark_owner' as const);

/**
 * POST /recharge_card/add. One transaction: the card numbers of the prefix's day are reserved,
 * a partner pays face value × quantity from its balance (an admin's cards are minted by the
 * platform), the value goes into the platform's `cards` account, the cards are written.
 */
export function addCards(
  ctx: AppContext,
  auth: AuthContext,
  input: AddCardsInput,
  idempotency?: Idempotency,
): Promise<AddCardsReply> {
  return runMoney(
    ctx,
    async (trx) => {
      const now = ctx.now();
      if (input.expire_at !== null && input.expire_at <= now) throw refuse('card.expiryPast');
      const actor = await findUserById(trx, auth.user.id);
      if (!actor) throw refuse('card.userNotFound');
      const partner = auth.role === 'partner';
      const total = input.units * input.quantity;
      if (!Number.isSafeInteger(total)) throw refuse('money.insufficient');
      // Lock order everywhere: cards → users → card_sequences → platform accounts.
      if (partner) await lockUsers(ctx, trx, [actor.id]);
      const prefix = `${(partner && actor.service_prefix_no) || 'P'}${businessDay(now)}`;
      const first = await reserveSequence(trx, prefix, input.quantity);
      if (first === undefined) throw refuse('card.sequenceFull');
      const cardNo = (seq: number) => `${prefix}${String(seq).padStart(6, '0')}`;
      const batchNo = `B${cardNo(first)}`;
      const common = { asset: input.asset, relatedType: 'card_batch', now };
      if (partner) {
        await post(trx, {
          ...common,
          userId: actor.id,
          type: 'card_issue',
          change: -total,
          memo: batchNo,
          operatorId: auth.session.overstep_by ?? actor.id,
        });
      }
      await postSystem(trx, { ...common, account: 'cards', change: total });
      if (!partner) await postSystem(trx, { ...common, account: 'issuance', change: -total });
      const rows: Insertable<RechargeCardsTable>[] = [];
      for (let i = 0; i < input.quantity; i += 1) {
        rows.push({
          card_no: cardNo(first + i),
          card_pwd: newCardPassword(),
          batch_no: batchNo,
          asset: input.asset,
          face_value: input.units,
          price: input.price,
          creator_id: actor.id,
          owner_id: actor.id,
          service_id: partner ? actor.id : 0,
          paid_by: partner ? actor.id : null,
          status: 0,
          used_by: null,
          used_at: null,
          expire_at: input.expire_at,
          [remarkColumn(auth)]: input.remark,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        });
      }
      await insertCards(trx, rows);
      await writeAudit(trx, {
        actorId: actor.id,
        action: 'card_add',
        targetType: 'card_batch',
        targetId: null,
        detail: {
          batch_no: batchNo,
          asset: input.asset,
          face_value: formatFaceValue(input.asset, input.units),
          quantity: input.quantity,
        },
        now,
      });
      return { batch_no: batchNo, count: input.quantity };
    },
    idempotency,
  );
}

const transferable = (
  card: { owner_id: number; status: number; expire_at: number | null },
  me: number,
  now: number,
) =>
  Number(card.owner_id) === me &&
  Number(card.status) === 0 &&
  (card.expire_at === null || Number(card.expire_at) > now);

function selectionOf(body: { ids?: number[]; batch_no?: string }): Selection {
  return body.ids ? { ids: body.ids } : { batch_no: body.batch_no ?? '' };
}

/**
 * The selected cards, locked. With `ids` every card must be in scope (else "card not found", the
 * same as for a missing one); with `batch_no` the batch must have a card in scope.
 */
async function lockedCards(ctx: AppContext, trx: Trx, auth: AuthContext, selection: Selection) {
  const rows = await lockSelection(trx, ctx.engine, viewerOf(auth), selection);
  if ('ids' in selection ? rows.length !== selection.ids.length : rows.length === 0) {
    throw refuse('card.notFound');
  }
  return rows;
}

/** POST /recharge_card/transfer_card: the caller's unused, unexpired cards to a descendant. */
export async function transferCards(
  ctx: AppContext,
  auth: AuthContext,
  body: { ids?: number[]; batch_no?: string; to_user_id: number },
): Promise<CountReply> {
  return runMoney(ctx, async (trx) => {
    const now = ctx.now();
    const me = auth.user.id;
    const target = await findUserById(trx, body.to_user_id);
    if (!reachesUser(auth, target)) throw refuse('card.userNotFound');
    const selection = selectionOf(body);
    const rows = await lockedCards(ctx, trx, auth, selection);
    const moving = rows.filter((card) => transferable(card, me, now));
    if (moving.length === 0 || ('ids' in selection && moving.length !== rows.length)) {
      throw refuse('card.notTransferable');
    }
    const ids = moving.map((card) => card.id);
    const updated = await trx
      .updateTable('recharge_cards')
      .set({ owner_id: target.id, updated_at: now })
      .where('id', 'in', ids)
      .where('owner_id', '=', me)
      .where('status', '=', 0)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('expire_at', 'is', null), eb('expire_at', '>', now)]))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== ids.length) throw refuse('card.notTransferable');
    await writeAudit(trx, {
      actorId: auth.session.overstep_by ?? me,
      action: 'card_transfer',
      targetType: 'user',
      targetId: target.id,
      detail: { count: ids.length, ...selection },
      now,
    });
    return { count: ids.length };
  });
}

/**
 * POST /recharge_card/use_card. A card number that does not exist, a wrong password and a card
 * of another service all answer "card not found" and count against the caller's throttle
 * (REDEEM_RULE); the card is then marked used by a conditional update (`WHERE status = 0`) in the
 * same transaction that credits it, so however many requests race, one wins.
 */
export async function useCard(
  ctx: AppContext,
  auth: AuthContext,
  body: { card_no: string; card_pwd: string },
): Promise<UseCardReply> {
  const me = auth.user;
  const key = `card:${me.id}`;
  const start = ctx.now();
  const lockedUntil = await ctx.db
    .transaction()
    .execute((trx) => reserveAttempt(trx, key, REDEEM_RULE, start));
  if (lockedUntil !== null) {
    throw refuse('card.throttled', {
      minutes: Math.max(1, Math.ceil((lockedUntil - start) / MINUTE)),
    });
  }
  const release = () =>
    ctx.db.transaction().execute((trx) => releaseAttempt(trx, key, REDEEM_RULE));
  try {
    const reply = await runMoney(ctx, async (trx) => {
      const now = ctx.now();
      const card = await findCardByNo(trx, body.card_no);
      if (
        !card ||
        !samePassword(card.card_pwd, body.card_pwd) ||
        (Number(card.service_id) !== 0 && Number(card.service_id) !== me.service_id)
      ) {
        throw refuse('card.notFound');
      }
      const refusal = (
        row: { status: number; expire_at: number | null; deleted_at: number | null } | undefined,
      ) => {
        if (!row || row.deleted_at !== null) return refuse('card.notFound');
        if (Number(row.status) === 1) return refuse('card.used');
        if (Number(row.status) === 2) return refuse('card.void');
        return refuse('card.expired');
      };
      if (Number(card.status) !== 0 || (card.expire_at !== null && Number(card.expire_at) <= now)) {
        throw refusal(card);
      }
      const updated = await trx
        .updateTable('recharge_cards')
        .set({ status: 1, used_by: me.id, used_at: now, updated_at: now })
        .where('id', '=', card.id)
        .where('status', '=', 0)
        .where('deleted_at', 'is', null)
        .where((eb) => eb.or([eb('expire_at', 'is', null), eb('expire_at', '>', now)]))
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw refusal(await findCardById(trx, card.id));
      const face = Number(card.face_value);
      const common = { asset: card.asset, relatedType: 'recharge_card', relatedId: card.id, now };
      await post(trx, {
        ...common,
        userId: me.id,
        type: 'card_redeem',
        change: face,
        memo: card.card_no,
        operatorId: auth.session.overstep_by ?? me.id,
      });
      await postSystem(trx, { ...common, account: 'cards', change: -face });
      return {
        id: card.id,
        card_no: card.card_no,
        asset: card.asset,
        face_value: formatFaceValue(card.asset, face),
      };
    });
    await release();
    return reply;
  } catch (error) {
    // Only a wrong number or password counts; whoever knows the password is not guessing.
    if (!(error instanceof AppError && error.messageId === 'card.notFound')) await release();
    throw error;
  }
}

/** POST /recharge_card/remark_card: the remark of the caller's role on cards in its scope. */
export function remarkCards(
  ctx: AppContext,
  auth: AuthContext,
  body: { ids: number[]; remark: string },
): Promise<CountReply> {
  return runMoney(ctx, async (trx) => {
    const now = ctx.now();
    const rows = await lockedCards(ctx, trx, auth, { ids: body.ids });
    await trx
      .updateTable('recharge_cards')
      .set({ [remarkColumn(auth)]: body.remark, updated_at: now })
      .where(
        'id',
        'in',
        rows.map((card) => card.id),
      )
      .execute();
    return { count: rows.length };
  });
}

/** POST /recharge_card/edit_card: unused ↔ void and the expiry of a card that is not used. */
export async function editCard(
  ctx: AppContext,
  auth: AuthContext,
  body: EditCardParams,
): Promise<CardRow> {
  const viewer = viewerOf(auth);
  await runMoney(ctx, async (trx) => {
    const now = ctx.now();
    const [card] = await lockedCards(ctx, trx, auth, { ids: [body.id] });
    if (Number(card.status) === 1) throw refuse('card.usedImmutable');
    if (body.expire_at !== undefined && body.expire_at !== null && body.expire_at <= now) {
      throw refuse('card.expiryPast');
    }
    const changes: { status?: number; expire_at?: number | null } = {};
    if (body.status !== undefined) changes.status = body.status;
    if (body.expire_at !== undefined) changes.expire_at = body.expire_at;
    const updated = await trx
      .updateTable('recharge_cards')
      .set({ ...changes, updated_at: now })
      .where('id', '=', card.id)
      .where('status', 'in', [0, 2])
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw refuse('card.usedImmutable');
    await writeAudit(trx, {
      actorId: auth.session.overstep_by ?? auth.user.id,
      action: 'card_edit',
      targetType: 'recharge_card',
      targetId: card.id,
      detail: changes,
      now,
    });
  });
  const row = await findCardRow(ctx.db, viewer, body.id, ctx.now());
  if (!row) throw refuse('card.notFound');
  return row;
}

/**
 * POST /recharge_card/batch_del: soft-deletes unused and void cards; each card's face value goes
 * back to whoever paid it (`card_refund` on the partner's ledger) or to the platform's issuance
 * (minted cards), out of the `cards` account.
 */
export function deleteCards(
  ctx: AppContext,
  auth: AuthContext,
  body: { ids?: number[]; batch_no?: string },
): Promise<CountReply> {
  return runMoney(ctx, async (trx) => {
    const now = ctx.now();
    const selection = selectionOf(body);
    const rows = await lockedCards(ctx, trx, auth, selection);
    const doomed = rows.filter((card) => Number(card.status) !== 1);
    if (doomed.length === 0 || ('ids' in selection && doomed.length !== rows.length)) {
      throw refuse('card.usedNotDeletable');
    }
    const ids = doomed.map((card) => card.id);
    const deleted = await trx
      .updateTable('recharge_cards')
      .set({ deleted_at: now, updated_at: now })
      .where('id', 'in', ids)
      .where('status', 'in', [0, 2])
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(deleted.numUpdatedRows) !== ids.length) throw refuse('card.usedNotDeletable');

    // Sums per payer and asset; 0 stands for the platform (minted cards).
    const refunds = new Map<string, { payer: number; asset: CardAsset; units: number }>();
    for (const card of doomed) {
      const payer = card.paid_by === null ? 0 : Number(card.paid_by);
      const k = `${payer}:${card.asset}`;
      const entry = refunds.get(k) ?? { payer, asset: card.asset, units: 0 };
      entry.units += Number(card.face_value);
      refunds.set(k, entry);
    }
    const payers = [...refunds.values()].filter((r) => r.payer !== 0).map((r) => r.payer);
    await lockUsers(ctx, trx, payers);
    const operatorId = auth.session.overstep_by ?? auth.user.id;
    const common = { relatedType: 'card_delete', now };
    for (const refund of [...refunds.values()].sort((a, b) => a.payer - b.payer)) {
      if (refund.payer === 0) continue;
      await post(trx, {
        ...common,
        userId: refund.payer,
        asset: refund.asset,
        type: 'card_refund',
        change: refund.units,
        memo: body.batch_no ?? '',
        operatorId,
      });
    }
    for (const asset of CARD_ASSETS) {
      const all = [...refunds.values()].filter((r) => r.asset === asset);
      const units = all.reduce((sum, r) => sum + r.units, 0);
      if (units > 0) await postSystem(trx, { ...common, account: 'cards', asset, change: -units });
    }
    for (const asset of CARD_ASSETS) {
      const minted = refunds.get(`0:${asset}`)?.units ?? 0;
      if (minted > 0) {
        await postSystem(trx, { ...common, account: 'issuance', asset, change: minted });
      }
    }
    await writeAudit(trx, {
      actorId: operatorId,
      action: 'card_delete',
      targetType: 'recharge_card',
      targetId: null,
      detail: { count: ids.length, ...selection },
      now,
    });
    return { count: ids.length };
  });
}

export function cardList(
  ctx: AppContext,
  auth: AuthContext,
  query: CardListParams,
): Promise<CardListReply> {
  const { page, limit, ...filter } = query;
  return listCards(ctx.db, viewerOf(auth), filter, { page, limit }, ctx.now());
}

export function operableCards(
  ctx: AppContext,
  auth: AuthContext,
  query: CanOperateParams,
): Promise<CardListReply> {
  const { page, limit, ...filter } = query;
  return listOperableCards(ctx.db, viewerOf(auth), filter, { page, limit }, ctx.now());
}

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

interface ExportQuery {
  filter: CardFilter & { ids?: number[] };
  locale: Locale;
}

/**
 * POST /recharge_card/export_ticket: a random 256-bit ticket for one download of the current
 * filter or selection, within 60 s, by whoever holds it. Only its hash is stored, with the user
 * and the query it is bound to.
 */
export async function exportTicket(
  ctx: AppContext,
  auth: AuthContext,
  body: ExportTicketParams,
  locale: Locale,
): Promise<ExportTicketReply> {
  const now = ctx.now();
  const ticket = randomBytes(32).toString('base64url');
  const query: ExportQuery = { filter: body, locale };
  const expiresAt = now + EXPORT_TICKET_MS;
  await ctx.db.transaction().execute(async (trx) => {
    // Tickets are worth nothing a minute after they were made: forget old ones.
    await trx
      .deleteFrom('download_tickets')
      .where('expires_at', '<', now - 3_600_000)
      .execute();
    await trx
      .insertInto('download_tickets')
      .values({
        ticket_hash: hashTicket(ticket),
        user_id: auth.user.id,
        kind: 'cards',
        query: JSON.stringify(query),
        created_at: now,
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
    await writeAudit(trx, {
      actorId: auth.session.overstep_by ?? auth.user.id,
      action: 'card_export',
      targetType: 'recharge_card',
      targetId: null,
      detail: { ...body },
      now,
    });
  });
  return {
    ticket,
    expires_at: expiresAt,
    url: `${API_PREFIX}/recharge_card/export_data?ticket=${ticket}`,
  };
}

/** HTTP 410: the download link is spent (used, expired, unknown, or its user is gone). */
const ticketRefused = () => new AppError('export.ticketInvalid', {}, 410);

const CSV_RISKY = /^[=+\-@\t\r]/;
function csvCell(value: string): string {
  const text = CSV_RISKY.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const formatTime = (ms: number) =>
  new Date(ms + DAY_OFFSET).toISOString().slice(0, 16).replace('T', ' ');

export interface CardExport {
  filename: string;
  stream: Readable;
}

/**
 * GET /recharge_card/export_data: spends the ticket (a conditional update, so it works once),
 * re-checks its user, and streams the CSV of the bound query in pages from the database. The
 * header row is in the `lang` header's language, else the language the ticket was asked in.
 */
export async function exportData(
  ctx: AppContext,
  ticket: string,
  langHeader: Locale | undefined,
): Promise<CardExport> {
  const now = ctx.now();
  const spent = await ctx.db
    .updateTable('download_tickets')
    .set({ used_at: now })
    .where('ticket_hash', '=', hashTicket(ticket))
    .where('kind', '=', 'cards')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'query'])
    .executeTakeFirst();
  if (!spent) throw ticketRefused();
  const user = await findUserById(ctx.db, Number(spent.user_id));
  if (!user || user.status !== USER_STATUS.normal) throw ticketRefused();
  const role = roleOf(user.user_type);
  if (role !== 'admin' && role !== 'partner') throw ticketRefused();
  const query = JSON.parse(spent.query) as ExportQuery;
  const locale = langHeader ?? query.locale;
  const viewer: CardViewer = { role, id: user.id };

  return {
    filename: `cards-${new Date(now + DAY_OFFSET).toISOString().slice(0, 10)}.csv`,
    stream: Readable.from(cardCsv(ctx, viewer, query.filter, locale, now)),
  };
}

/**
 * The CSV of an export: the header row, then one chunk per page of rows read from the database
 * (so an export of any size holds one page in memory). Also the bench's direct baseline.
 */
export async function* cardCsv(
  ctx: AppContext,
  viewer: CardViewer,
  filter: CardFilter & { ids?: number[] },
  locale: Locale,
  now: number,
): AsyncGenerator<string> {
  const status = (row: ExportCard) => {
    if (row.status === 1) return t(locale, 'export.status.used');
    if (row.status === 2) return t(locale, 'export.status.void');
    return t(locale, row.expired ? 'export.status.expired' : 'export.status.unused');
  };
  yield `\uFEFF${t(locale, 'export.cards.header')}\r\n`;
  for await (const page of exportCards(ctx.db, viewer, filter, now)) {
    let chunk = '';
    for (const row of page) {
      chunk += `${[
        row.card_no,
        row.card_pwd,
        t(locale, `export.asset.${row.asset}`),
        row.face_value,
        status(row),
        row.expire_at === null ? t(locale, 'export.never') : formatTime(row.expire_at),
        row.batch_no,
      ]
        .map(csvCell)
        .join(',')}\r\n`;
    }
    yield chunk;
  }
}
