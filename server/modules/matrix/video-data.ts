import type { Selectable } from 'kysely';
import type { Locale } from '../../../src/api/contract/messages';
import type { VideoData } from '../../../src/api/contract/matrix-plans';
import type { AppContext, AuthContext } from '../../context';
import type { MatrixPostsTable } from '../../platform/db/schema';
import { recurringJob } from '../../platform/jobs/define-job';
import { adapterOf } from './platforms';
import { toPosts } from './posts';
import { dateIn } from './schedule';
import { openAccessToken, shownStatus } from './tokens';

/**
 * Video data (docs/domain.md §20): the numbers of published posts, pulled from the platform by a
 * recurring job — a post published in the last 2 days every 30 minutes, within 30 days once a day,
 * older ones no more — at most 5 calls of 20 posts per account per pass (the platform's rate
 * limits); each read is kept on the post and as that day's row (`matrix_post_days`).
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PER_CALL = 20;
const CALLS_PER_ACCOUNT = 5;
/** Days are Asia/Shanghai dates (the console's users' day). */
export const DATA_ZONE = 'Asia/Shanghai';
const ROWS_MAX = 5000;

type PostRow = Selectable<MatrixPostsTable>;

/** One pass of the pull; answers how many posts got fresh numbers. */
export async function pullMetrics(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  const due = await ctx.db
    .selectFrom('matrix_posts')
    .selectAll()
    .where('status', '=', 'published')
    .where('published_at', '>', now - 30 * DAY)
    .where((eb) =>
      eb.or([
        eb('metrics_at', 'is', null),
        eb.and([eb('published_at', '>', now - 2 * DAY), eb('metrics_at', '<', now - 30 * MINUTE)]),
        eb('metrics_at', '<', now - DAY),
      ]),
    )
    .orderBy('metrics_at')
    .limit(5000)
    .execute();
  const byAccount = new Map<number, PostRow[]>();
  for (const post of due) {
    const id = Number(post.account_id);
    const list = byAccount.get(id) ?? [];
    if (list.length < PER_CALL * CALLS_PER_ACCOUNT) list.push(post);
    byAccount.set(id, list);
  }
  let pulled = 0;
  for (const [accountId, posts] of byAccount) {
    const account = await ctx.db
      .selectFrom('matrix_accounts')
      .selectAll()
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    const adapter = await adapterOf(ctx, account);
    const status = shownStatus(account, now);
    if (!adapter || account.deleted_at !== null || (status !== 'normal' && status !== 'expiring')) {
      continue;
    }
    const credentials = { openId: account.open_id, accessToken: openAccessToken(ctx, account) };
    for (let i = 0; i < posts.length; i += PER_CALL) {
      const chunk = posts.slice(i, i + PER_CALL);
      let found;
      try {
        found = await adapter.metrics(
          credentials,
          chunk.map((p) => p.platform_post_id!),
        );
      } catch (error) {
        ctx.log.warn({ err: error, accountId }, 'metrics pull failed');
        break;
      }
      const at = ctx.now();
      const day = dateIn(at, DATA_ZONE);
      for (const post of chunk) {
        const m = found.find((f) => f.postId === post.platform_post_id)?.metrics;
        if (!m) continue;
        await ctx.db.transaction().execute(async (trx) => {
          await trx
            .updateTable('matrix_posts')
            .set({ ...m, metrics_at: at })
            .where('id', '=', post.id)
            .execute();
          await trx
            .insertInto('matrix_post_days')
            .values({ post_id: Number(post.id), day, owner_id: Number(post.owner_id), ...m })
            .onConflict((oc) => oc.columns(['post_id', 'day']).doUpdateSet(m))
            .execute();
        });
        pulled += 1;
      }
    }
  }
  return pulled;
}

export const metricsJobs = [
  recurringJob<AppContext>('matrix-metrics', 5 * MINUTE, async (ctx) => {
    const pulled = await pullMetrics(ctx);
    if (pulled > 0) ctx.log.info({ pulled }, 'post numbers pulled');
  }),
];

const ZERO = { plays: 0, likes: 0, comments: 0, shares: 0 };
type Numbers = typeof ZERO;
const add = (a: Numbers, b: Numbers): Numbers => ({
  plays: a.plays + b.plays,
  likes: a.likes + b.likes,
  comments: a.comments + b.comments,
  shares: a.shares + b.shares,
});
const numbersOf = (r: Numbers): Numbers => ({
  plays: Number(r.plays),
  likes: Number(r.likes),
  comments: Number(r.comments),
  shares: Number(r.shares),
});

/** GET /matrix/video_data */
export async function videoData(
  ctx: AppContext,
  auth: AuthContext,
  query: { account_id?: number; plan_id?: number; from: number; to: number },
  locale: Locale,
): Promise<VideoData> {
  let q = ctx.db
    .selectFrom('matrix_posts')
    .where('owner_id', '=', auth.user.id)
    .where('status', '=', 'published')
    .where('published_at', '>=', query.from)
    .where('published_at', '<=', query.to);
  if (query.account_id !== undefined) q = q.where('account_id', '=', query.account_id);
  if (query.plan_id !== undefined) q = q.where('plan_id', '=', query.plan_id);
  const rows = await q.selectAll().orderBy('published_at', 'desc').limit(ROWS_MAX).execute();

  let totals = { ...ZERO };
  const perAccount = new Map<number, { posts: number } & Numbers>();
  for (const r of rows) {
    const n = numbersOf(r);
    totals = add(totals, n);
    const id = Number(r.account_id);
    const seen = perAccount.get(id) ?? { posts: 0, ...ZERO };
    perAccount.set(id, { posts: seen.posts + 1, ...add(seen, n) });
  }
  const names = new Map(
    perAccount.size === 0
      ? []
      : (
          await ctx.db
            .selectFrom('matrix_accounts')
            .select(['id', 'nickname'])
            .where('id', 'in', [...perAccount.keys()])
            .execute()
        ).map((a) => [Number(a.id), a.nickname]),
  );

  // Each day's gain: a post's numbers that day less its last numbers before it.
  const days =
    rows.length === 0
      ? []
      : await ctx.db
          .selectFrom('matrix_post_days')
          .selectAll()
          .where(
            'post_id',
            'in',
            rows.map((r) => Number(r.id)),
          )
          .orderBy('post_id')
          .orderBy('day')
          .execute();
  const daily = new Map<string, Numbers>();
  let last: { post: number; n: Numbers } | null = null;
  for (const d of days) {
    const n = numbersOf(d);
    const before: Numbers = last && last.post === Number(d.post_id) ? last.n : ZERO;
    const gain = {
      plays: n.plays - before.plays,
      likes: n.likes - before.likes,
      comments: n.comments - before.comments,
      shares: n.shares - before.shares,
    };
    daily.set(d.day, add(daily.get(d.day) ?? ZERO, gain));
    last = { post: Number(d.post_id), n };
  }
  const from = dateIn(query.from, DATA_ZONE);
  const to = dateIn(query.to, DATA_ZONE);
  const posts = await toPosts(ctx, rows, locale);
  return {
    totals: { posts: rows.length, ...totals },
    daily: [...daily.entries()]
      .filter(([date]) => date >= from && date <= to)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, n]) => ({ date, ...n })),
    accounts: [...perAccount.entries()].map(([id, v]) => ({
      account_id: id,
      nickname: names.get(id) ?? '',
      ...v,
    })),
    top: [...posts].sort((a, b) => b.metrics.plays - a.metrics.plays).slice(0, 10),
    rows: posts,
  };
}
