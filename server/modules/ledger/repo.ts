import { sql } from 'kysely';
import type { Asset, Executor, LedgerType, SystemAccount } from '../../platform/db/schema';
import { memoColumns, type Memo } from './memo';

/** The balance column each ledger asset moves. */
export const BALANCE_COLUMN = {
  money: 'money',
  digital_man: 'digital_man_seconds',
  digital_voice: 'voice_clone_count',
  image_clone: 'image_clone_count',
} as const satisfies Record<Asset, string>;

export interface LedgerEntry {
  userId: number;
  asset: Asset;
  type: LedgerType;
  /** Signed, in the asset's unit (cents, seconds, count). */
  change: number;
  memo?: Memo;
  relatedType?: string;
  relatedId?: number;
  operatorId?: number | null;
  /** The hold this row moves (holds.ts). */
  holdId?: number;
  now: number;
}

/**
 * Moves one balance and appends its ledger row. Call inside a transaction. The update is
 * conditional (`balance + change >= 0`), so a debit larger than the balance changes nothing and
 * returns undefined; otherwise returns the balance after the change.
 */
export async function postEntry(db: Executor, entry: LedgerEntry): Promise<number | undefined> {
  if (!Number.isSafeInteger(entry.change) || entry.change === 0) {
    throw new Error(`ledger change must be a non-zero integer, got ${entry.change}`);
  }
  const column = BALANCE_COLUMN[entry.asset];
  const updated = await db
    .updateTable('users')
    .set({ [column]: sql`${sql.ref(column)} + ${entry.change}` })
    .where('id', '=', entry.userId)
    .where(sql<boolean>`${sql.ref(column)} + ${entry.change} >= 0`)
    .returning(sql<number>`${sql.ref(column)}`.as('after'))
    .executeTakeFirst();
  if (!updated) return undefined;
  const after = Number(updated.after);
  const memo = memoColumns(entry.memo);
  await db
    .insertInto('ledger')
    .values({
      user_id: entry.userId,
      asset: entry.asset,
      type: entry.type,
      change: entry.change,
      before: after - entry.change,
      after,
      memo: memo.text,
      memo_id: memo.id,
      memo_params: memo.params,
      related_type: entry.relatedType ?? null,
      related_id: entry.relatedId ?? null,
      operator_id: entry.operatorId ?? null,
      hold_id: entry.holdId ?? null,
      created_at: entry.now,
    })
    .execute();
  return after;
}

export interface SystemEntry {
  account: SystemAccount;
  asset: Asset;
  change: number;
  /** The movement's ledger type (task rows: `task_freeze`, `task_settle`, `task_refund`). */
  type?: LedgerType;
  relatedType?: string;
  relatedId?: number;
  holdId?: number;
  now: number;
}

/** Moves one of the platform's accounts and appends its ledger row. Call inside a transaction. */
export async function postSystemEntry(db: Executor, entry: SystemEntry): Promise<number> {
  if (!Number.isSafeInteger(entry.change) || entry.change === 0) {
    throw new Error(`ledger change must be a non-zero integer, got ${entry.change}`);
  }
  const updated = await db
    .updateTable('system_accounts')
    .set({ balance: sql`balance + ${entry.change}` })
    .where('account', '=', entry.account)
    .where('asset', '=', entry.asset)
    .returning('balance')
    .executeTakeFirstOrThrow();
  const after = Number(updated.balance);
  await db
    .insertInto('system_ledger')
    .values({
      account: entry.account,
      asset: entry.asset,
      change: entry.change,
      before: after - entry.change,
      after,
      type: entry.type ?? null,
      related_type: entry.relatedType ?? null,
      related_id: entry.relatedId ?? null,
      hold_id: entry.holdId ?? null,
      created_at: entry.now,
    })
    .execute();
  return after;
}
