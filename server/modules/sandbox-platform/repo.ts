import type { Selectable } from 'kysely';
import type { Db, SandboxPlatformPostsTable } from '../../platform/db/schema';
import { avatarPath, DEMO_ACCOUNTS, REVIEW_MS } from './rules';

/** The sandbox platform's SQL (tables `sandbox_platform_*`, migration 0015). */

export type PostRow = Selectable<SandboxPlatformPostsTable>;

const CLOCK_ROW = 1;

/** The sandbox's clock: the app's clock plus the stored offset. */
export async function sandboxNow(db: Db, appNow: number): Promise<number> {
  const row = await db
    .selectFrom('sandbox_platform_clock')
    .select('offset_seconds')
    .where('id', '=', CLOCK_ROW)
    .executeTakeFirst();
  return appNow + Number(row?.offset_seconds ?? 0) * 1000;
}

/** Moves the sandbox's clock forward; answers the new offset (seconds). */
export async function advanceClock(db: Db, seconds: number): Promise<number> {
  await db
    .insertInto('sandbox_platform_clock')
    .values({ id: CLOCK_ROW, offset_seconds: 0 })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await db
    .updateTable('sandbox_platform_clock')
    .set((eb) => ({ offset_seconds: eb('offset_seconds', '+', seconds) }))
    .where('id', '=', CLOCK_ROW)
    .execute();
  return (await sandboxNow(db, 0)) / 1000;
}

/** Inserts the demo accounts that are missing (idempotent, safe in several processes). */
export async function ensureSandboxAccounts(db: Db, now: number): Promise<void> {
  await db
    .insertInto('sandbox_platform_accounts')
    .values(
      DEMO_ACCOUNTS.map((a) => ({
        ...a,
        avatar: avatarPath(a.open_id),
        revoked: 0,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.column('open_id').doNothing())
    .execute();
}

export const listAccounts = (db: Db) =>
  db.selectFrom('sandbox_platform_accounts').selectAll().orderBy('open_id').execute();

export const findAccount = (db: Db, openId: string) =>
  db
    .selectFrom('sandbox_platform_accounts')
    .selectAll()
    .where('open_id', '=', openId)
    .executeTakeFirst();

export async function setRevoked(db: Db, openId: string, revoked: boolean): Promise<boolean> {
  const result = await db
    .updateTable('sandbox_platform_accounts')
    .set({ revoked: revoked ? 1 : 0 })
    .where('open_id', '=', openId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertCode(
  db: Db,
  row: { code: string; open_id: string; scope: string; redirect_uri: string; expires_at: number },
): Promise<void> {
  await db.insertInto('sandbox_platform_codes').values(row).execute();
}

/** Uses a code once: the row when it was unused and fresh, else undefined. */
export async function takeCode(db: Db, code: string, now: number) {
  const result = await db
    .updateTable('sandbox_platform_codes')
    .set({ used_at: now })
    .where('code', '=', code)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return undefined;
  return db
    .selectFrom('sandbox_platform_codes')
    .selectAll()
    .where('code', '=', code)
    .executeTakeFirst();
}

/** The account a code names (used or not), to apply its faults. */
export const accountOfCode = async (db: Db, code: string) =>
  (
    await db
      .selectFrom('sandbox_platform_codes')
      .select('open_id')
      .where('code', '=', code)
      .executeTakeFirst()
  )?.open_id;

export async function insertAccessToken(
  db: Db,
  row: { token: string; open_id: string; grant_id: string; scope: string; expires_at: number },
): Promise<void> {
  await db.insertInto('sandbox_platform_access_tokens').values(row).execute();
}

export async function insertRefreshToken(
  db: Db,
  row: {
    token: string;
    open_id: string;
    grant_id: string;
    scope: string;
    renewals: number;
    expires_at: number;
  },
): Promise<void> {
  await db.insertInto('sandbox_platform_refresh_tokens').values(row).execute();
}

export const findAccessToken = (db: Db, token: string) =>
  db
    .selectFrom('sandbox_platform_access_tokens')
    .selectAll()
    .where('token', '=', token)
    .executeTakeFirst();

export const findRefreshToken = (db: Db, token: string) =>
  db
    .selectFrom('sandbox_platform_refresh_tokens')
    .selectAll()
    .where('token', '=', token)
    .executeTakeFirst();

/** Removes a refresh token being replaced; false when another call replaced it first. */
export async function dropRefreshToken(db: Db, token: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sandbox_platform_refresh_tokens')
    .where('token', '=', token)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertVideo(
  db: Db,
  row: {
    video_id: string;
    open_id: string;
    size: number;
    width: number;
    height: number;
    duration_ms: number;
    created_at: number;
  },
): Promise<void> {
  await db.insertInto('sandbox_platform_videos').values(row).execute();
}

export const findVideo = (db: Db, videoId: string) =>
  db
    .selectFrom('sandbox_platform_videos')
    .selectAll()
    .where('video_id', '=', videoId)
    .executeTakeFirst();

export async function insertPost(
  db: Db,
  row: { item_id: string; open_id: string; video_id: string; title: string; created_at: number },
): Promise<void> {
  await db
    .insertInto('sandbox_platform_posts')
    .values({ ...row, share_url: null, status: 'reviewing' })
    .execute();
}

/** Publishes the account's posts whose review is over (at sandbox time `now`). */
async function settleReviews(
  db: Db,
  openId: string,
  now: number,
  shareUrl: (itemId: string) => string,
) {
  const due = await db
    .selectFrom('sandbox_platform_posts')
    .select(['id', 'item_id'])
    .where('open_id', '=', openId)
    .where('status', '=', 'reviewing')
    .where('created_at', '<=', now - REVIEW_MS)
    .execute();
  for (const post of due) {
    await db
      .updateTable('sandbox_platform_posts')
      .set({ status: 'published', share_url: shareUrl(post.item_id) })
      .where('id', '=', post.id)
      .where('status', '=', 'reviewing')
      .execute();
  }
}

/** The account's posts, newest first, review settled at `now`. */
export async function listPosts(
  db: Db,
  openId: string,
  page: { offset: number; limit: number } | { itemIds: readonly string[] } | 'all',
  now: number,
  shareUrl: (itemId: string) => string,
): Promise<PostRow[]> {
  await settleReviews(db, openId, now, shareUrl);
  let query = db
    .selectFrom('sandbox_platform_posts')
    .selectAll()
    .where('open_id', '=', openId)
    .orderBy('id', 'desc');
  if (page !== 'all') {
    if ('itemIds' in page) {
      if (page.itemIds.length === 0) return [];
      query = query.where('item_id', 'in', page.itemIds);
    } else {
      query = query.limit(page.limit).offset(page.offset);
    }
  }
  return query.execute();
}

export const countPosts = async (db: Db, openId: string) =>
  Number(
    (
      await db
        .selectFrom('sandbox_platform_posts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('open_id', '=', openId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** fail: answer an error code; lose_reply: drop the connection; hold_reply: never answer. */
export type FaultKind = 'fail' | 'lose_reply' | 'hold_reply';

export async function addFault(
  db: Db,
  row: { open_id: string; kind: FaultKind; code: number | null; remaining: number },
): Promise<void> {
  await db.insertInto('sandbox_platform_faults').values(row).execute();
}

/**
 * Uses one of the account's faults of `kind` (the oldest first): its row, or undefined when none
 * is left. Safe when several calls (processes) take at once: each use is one conditional update.
 */
export async function takeFault(db: Db, openId: string, kind: FaultKind) {
  for (;;) {
    const fault = await db
      .selectFrom('sandbox_platform_faults')
      .selectAll()
      .where('open_id', '=', openId)
      .where('kind', '=', kind)
      .where('remaining', '>', 0)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!fault) return undefined;
    const taken = await db
      .updateTable('sandbox_platform_faults')
      .set((eb) => ({ remaining: eb('remaining', '-', 1) }))
      .where('id', '=', fault.id)
      .where('remaining', '>', 0)
      .executeTakeFirst();
    if (taken.numUpdatedRows > 0n) return fault;
  }
}
