import {
  EXCHANGE_OPTION,
  formatUnits,
  type Asset,
  type EditTransferConfigBody,
  type ExchangeReply,
  type ExchangeTarget,
  type ListReply,
  type MoneyLogParams,
  type MoneyLogRow,
  type TransferRecord,
  type TransferRecordParams,
} from '../../../src/api/contract/money';
import { DEFAULT_LOCALE, type Locale } from '../../../src/api/contract/messages';
import type { AppContext, AuthContext } from '../../context';
import type { Executor, UserRow } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { parseMoney } from '../../platform/lib/money';
import { issue, lockUsers, post, postSystem, runMoney, type Idempotency } from '../ledger';
import { priceFor, readConfigValue } from '../system';
import { findUserById } from '../users';
import { reachesUser } from '../users';
import {
  findTransfer,
  insertTransfer,
  listMoneyLog,
  listTransfers,
  numberTransfer,
  userVisibleTo,
} from './repo';

/** The flag that lets a partner move each asset (docs/domain.md §3; image clones go with digital humans). */
const TRANSFER_FLAG = {
  money: 'can_transfer_money',
  digital_man: 'can_transfer_digital_man',
  image_clone: 'can_transfer_digital_man',
  digital_voice: 'can_transfer_digital_voice',
} as const satisfies Record<Asset, keyof UserRow>;

export interface TransferInput {
  to_user_id: number;
  asset: Asset;
  units: number;
  remark?: string;
  direction: 'give' | 'take';
}

/**
 * One transfer in one transaction: `give` moves units from the caller (an admin: from the
 * platform's issuance) to a descendant, `take` moves them back. Two ledger rows share the transfer's
 * number; the debit is conditional, so a balance never goes below zero.
 */
export async function transfer(
  ctx: AppContext,
  auth: AuthContext,
  input: TransferInput,
  idempotency: Idempotency | undefined,
  audit: AuditTrail,
): Promise<TransferRecord> {
  const transferId = await runMoney(
    ctx,
    async (trx) => {
      const actor = await findUserById(trx, auth.user.id);
      const target = await findUserById(trx, input.to_user_id);
      if (!actor) throw refuse('transfer.targetNotFound');
      if (target?.id === actor.id) throw refuse('transfer.self');
      if (!reachesUser(auth, target)) throw refuse('transfer.targetNotFound');
      const platform = auth.role === 'admin';
      if (!platform && actor[TRANSFER_FLAG[input.asset]] !== 1) {
        throw refuse('transfer.noPermission');
      }
      await lockUsers(ctx, trx, platform ? [target.id] : [actor.id, target.id]);
      const now = ctx.now();
      const [from, to] = input.direction === 'give' ? [actor, target] : [target, actor];
      const id = await insertTransfer(trx, {
        from_user_id: from.id,
        to_user_id: to.id,
        asset: input.asset,
        amount: input.units,
        remark: input.remark ?? '',
        operator_id: actor.id,
        created_at: now,
      });
      const common = {
        asset: input.asset,
        memo: input.remark ?? '',
        relatedType: 'transfer',
        relatedId: id,
        operatorId: actor.id,
        now,
      };
      const moves = { from: [0, 0], to: [0, 0] };
      if (!platform || from.id !== actor.id) {
        const after = await post(trx, {
          ...common,
          userId: from.id,
          type: 'transfer_out',
          change: -input.units,
        });
        moves.from = [after + input.units, after];
      }
      if (!platform || to.id !== actor.id) {
        const after = await post(trx, {
          ...common,
          userId: to.id,
          type: 'transfer_in',
          change: input.units,
        });
        moves.to = [after - input.units, after];
      }
      if (platform) {
        // The admin's side is the platform: value issued on give, returned on take.
        await postSystem(trx, {
          account: 'issuance',
          asset: input.asset,
          change: input.direction === 'give' ? -input.units : input.units,
          relatedType: 'transfer',
          relatedId: id,
          now,
        });
      }
      await numberTransfer(trx, id, now, moves);
      const [before, after] = input.direction === 'give' ? moves.to : moves.from;
      audit.change(
        { [input.asset]: formatUnits(input.asset, before) },
        { [input.asset]: formatUnits(input.asset, after) },
      );
      return id;
    },
    idempotency,
    audit,
  );
  // A transfer made here carries the person's own remark (no message id): any language reads it.
  const record = await findTransfer(ctx.db, transferId, DEFAULT_LOCALE);
  if (!record) throw new Error(`transfer ${transferId} vanished`);
  return record;
}

export async function editTransferConfig(
  ctx: AppContext,
  auth: AuthContext,
  body: EditTransferConfigBody,
  audit: AuditTrail,
): Promise<
  Pick<
    UserRow,
    'id' | 'can_transfer_money' | 'can_transfer_digital_man' | 'can_transfer_digital_voice'
  >
> {
  return runInTransaction(
    ctx.db,
    async (trx) => {
      const actor = await findUserById(trx, auth.user.id);
      const target = await findUserById(trx, body.user_id);
      if (!actor || !reachesUser(auth, target)) throw refuse('transfer.targetNotFound');
      const changes = {
        can_transfer_money: body.can_transfer_money,
        can_transfer_digital_man: body.can_transfer_digital_man,
        can_transfer_digital_voice: body.can_transfer_digital_voice,
      };
      if (auth.role !== 'admin') {
        for (const [flag, value] of Object.entries(changes) as [keyof typeof changes, 0 | 1][]) {
          if (value === 1 && actor[flag] !== 1) throw refuse('transfer.cannotGrant');
        }
      }
      const now = ctx.now();
      if (Object.values(changes).some((v) => v !== undefined)) {
        await trx
          .updateTable('users')
          .set({ ...changes, updated_at: now })
          .where('id', '=', target.id)
          .execute();
      }
      audit.change(target, changes);
      const updated = await findUserById(trx, target.id);
      if (!updated) throw refuse('transfer.targetNotFound');
      return {
        id: updated.id,
        can_transfer_money: updated.can_transfer_money,
        can_transfer_digital_man: updated.can_transfer_digital_man,
        can_transfer_digital_voice: updated.can_transfer_digital_voice,
      };
    },
    { audit },
  );
}

/**
 * The price of one unit of an exchange target in cents: the user's own override, else its
 * partner's, else the platform's (docs/domain.md §12 "Settings and prices").
 */
async function priceOf(db: Executor, user: UserRow, target: ExchangeTarget): Promise<number> {
  const override =
    target === 'digital_man'
      ? user.digital_man_money_exchange_num
      : target === 'digital_voice'
        ? user.digital_voice_money_exchange_num
        : '';
  const name =
    target === 'digital_man'
      ? 'digital_man_money_exchange_num'
      : target === 'digital_voice'
        ? 'digital_voice_money_exchange_num'
        : 'image_clone_money_exchange_num';
  const text = override.trim() !== '' ? override : await priceFor(db, user, name);
  let cents: number;
  try {
    cents = parseMoney(text);
  } catch {
    throw refuse('exchange.noPrice');
  }
  if (cents <= 0) throw refuse('exchange.noPrice');
  return cents;
}

/** Seconds per unit of each exchange's quantity (digital humans are bought by the minute). */
const UNIT = { digital_man: 60, digital_voice: 1, image_clone: 1 } as const;

/**
 * Money → minutes / clones at the configured price (docs/domain.md §3): the money goes to the platform's
 * revenue, the asset is issued by the platform, all in one transaction.
 */
export async function exchange(
  ctx: AppContext,
  auth: AuthContext,
  body: { asset: ExchangeTarget; quantity: number },
  idempotency: Idempotency | undefined,
  audit: AuditTrail,
): Promise<ExchangeReply> {
  return runMoney(
    ctx,
    async (trx) => {
      const options = ((await readConfigValue(trx, 'money_recharge_exchange_config')) ?? '')
        .split(',')
        .map((s) => s.trim());
      if (!options.includes(EXCHANGE_OPTION[body.asset])) throw refuse('exchange.disabled');
      const user = await findUserById(trx, auth.user.id);
      if (!user) throw refuse('transfer.targetNotFound');
      const cost = (await priceOf(trx, user, body.asset)) * body.quantity;
      if (!Number.isSafeInteger(cost)) throw refuse('money.insufficient');
      const units = body.quantity * UNIT[body.asset];
      const now = ctx.now();
      const common = { memo: '', relatedType: 'exchange', operatorId: user.id, now };
      const money = await post(trx, {
        ...common,
        userId: user.id,
        asset: 'money',
        type: 'exchange',
        change: -cost,
      });
      await postSystem(trx, { account: 'revenue', asset: 'money', change: cost, now });
      const balance = await issue(trx, {
        ...common,
        userId: user.id,
        asset: body.asset,
        type: 'exchange',
        change: units,
      });
      audit.change(
        {
          money: formatUnits('money', money + cost),
          [body.asset]: formatUnits(body.asset, balance - units),
        },
        { money: formatUnits('money', money), [body.asset]: formatUnits(body.asset, balance) },
      );
      return {
        asset: body.asset,
        quantity: body.quantity,
        cost: formatUnits('money', cost),
        money: formatUnits('money', money),
        balance: formatUnits(body.asset, balance),
      };
    },
    idempotency,
    audit,
  );
}

/** The ledger of the caller, or of a user the caller may see (else "not found"). */
export async function moneyLog(
  ctx: AppContext,
  auth: AuthContext,
  query: MoneyLogParams,
  locale: Locale,
): Promise<ListReply<MoneyLogRow>> {
  const userId = query.user_id ?? auth.user.id;
  if (userId !== auth.user.id && !(await userVisibleTo(ctx.db, auth, userId))) {
    throw refuse('transfer.targetNotFound');
  }
  return listMoneyLog(ctx.db, { ...query, user_id: userId }, locale);
}

export async function transferRecords(
  ctx: AppContext,
  auth: AuthContext,
  query: TransferRecordParams,
  locale: Locale,
): Promise<ListReply<TransferRecord>> {
  if (query.user_id !== undefined && query.user_id !== auth.user.id) {
    if (!(await userVisibleTo(ctx.db, auth, query.user_id))) {
      throw refuse('transfer.targetNotFound');
    }
  }
  return listTransfers(ctx.db, auth, query, locale);
}
