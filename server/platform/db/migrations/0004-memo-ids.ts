import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Texts the server writes into the ledger (`memo`) and transfer records (`remark`) are kept as a
 * message id and its parameters (JSON), so that each viewer reads them in their own language;
 * the text column keeps the en-US wording for older readers. A person's own remark has no id.
 * The rows the server wrote before this migration get their ids from their English text.
 */
export async function up(db: AnyDb): Promise<void> {
  for (const [table, prefix] of [
    ['ledger', 'memo'],
    ['transfers', 'remark'],
  ] as const) {
    await db.schema.alterTable(table).addColumn(`${prefix}_id`, 'text').execute();
    await db.schema.alterTable(table).addColumn(`${prefix}_params`, 'text').execute();
  }
  for (const [text, id] of [
    ['demo opening balance', 'memo.demoOpeningBalance'],
    ['demo transfer', 'memo.demoTransfer'],
  ] as const) {
    await db.updateTable('ledger').set({ memo_id: id }).where('memo', '=', text).execute();
  }
  await db
    .updateTable('transfers')
    .set({ remark_id: 'memo.demoTransfer' })
    .where('remark', '=', 'demo transfer')
    .execute();
  // Usernames are [A-Za-z0-9_.@-]: safe inside a JSON string without escaping.
  for (const [start, id] of [
    ['trial credit to ', 'memo.trialCreditTo'],
    ['trial credit from ', 'memo.trialCreditFrom'],
  ] as const) {
    await db
      .updateTable('ledger')
      .set({
        memo_id: id,
        memo_params: sql`'{"username":"' || substr(memo, ${start.length + 1}) || '"}'`,
      })
      .where('type', '=', 'trial_credit')
      .where('memo', 'like', `${start}%`)
      .execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const [table, prefix] of [
    ['ledger', 'memo'],
    ['transfers', 'remark'],
  ] as const) {
    await db.schema.alterTable(table).dropColumn(`${prefix}_params`).execute();
    await db.schema.alterTable(table).dropColumn(`${prefix}_id`).execute();
  }
}
