import type { Locale } from '../../../src/api/contract/messages';
import type {
  PlanPost,
  PostListParams,
  PlanMediaType,
  PostStatus,
  ReleasePlan,
} from '../../../src/api/contract/matrix-plans';
import type { Selectable } from 'kysely';
import type { AppContext, AuthContext } from '../../context';
import { readPage } from '../../platform/db/list-cache';
import type { MatrixPostsTable } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { isMessageId, t } from '../../platform/i18n';
import { findPlanMedia } from './plan-media';
import { finishPlanIfDone } from './plans';

/**
 * A plan's posts as its owner sees them (docs/domain.md §20): the list, "publish now" (a waiting
 * post is due at once) and "retry" (a failed, retryable post waits again, due at once). The
 * dispatcher takes them within a second or two.
 */

type MediaRef = ReleasePlan['media'][number];

/** GET /matrix/post_list */
export async function postList(
  ctx: AppContext,
  auth: AuthContext,
  query: PostListParams,
  locale: Locale,
): Promise<{ list: PlanPost[]; total: number }> {
  const { page, limit, ...conditions } = query;
  const offset = (page - 1) * limit;
  let q = ctx.db.selectFrom('matrix_posts');
  let planTotal: number | undefined;
  if (query.plan_id !== undefined) {
    // A plan's posts are its owner's (docs/domain.md §20): the plan is checked once, and its
    // posts are read through matrix_posts_plan_seq_idx alone. Checking the owner on every post
    // read each row: a random page of a 120 000-post plan cost 13 ms of CPU (bench j).
    const plan = await ctx.db
      .selectFrom('matrix_plans')
      .select('total')
      .where('id', '=', query.plan_id)
      .where('owner_id', '=', auth.user.id)
      .executeTakeFirst();
    if (!plan) return { list: [], total: 0 };
    q = q.where('plan_id', '=', query.plan_id);
    planTotal = Number(plan.total);
  } else {
    q = q.where('owner_id', '=', auth.user.id);
  }
  if (query.account_id !== undefined) q = q.where('account_id', '=', query.account_id);
  if (query.status) q = q.where('status', '=', query.status);
  let rows: Selectable<MatrixPostsTable>[];
  let total: number;
  if (planTotal !== undefined && query.account_id === undefined && !query.status) {
    // All of a plan's posts: a page is a range of their places in the schedule, however deep.
    rows = await q.selectAll().where('seq', '>', offset).orderBy('seq').limit(limit).execute();
    total = planTotal;
  } else {
    // Through the list cache (db/list-cache.ts): the total counted once while no post changes;
    // within a plan the order is one unique key (`seq`), so deep pages start from anchors.
    const bySeq = planTotal !== undefined;
    ({ rows, total } = await readPage(ctx.db, {
      key: `matrix_posts ${auth.user.id} ${JSON.stringify(conditions)}`,
      filtered: () => q,
      now: ctx.now(),
      offset,
      keyAt: bySeq
        ? async (at) => {
            const row = await q.select('seq').orderBy('seq').limit(1).offset(at).executeTakeFirst();
            return row && Number(row.seq);
          }
        : undefined,
      rows: (start) =>
        bySeq
          ? q
              .selectAll()
              .$if(start.from !== undefined, (qb) => qb.where('seq', '>=', start.from!))
              .orderBy('seq')
              .limit(limit)
              .offset(start.skip)
              .execute()
          : q
              .selectAll()
              .orderBy('scheduled_at')
              .orderBy('id')
              .limit(limit)
              .offset(start.skip)
              .execute(),
      count: async () => ({
        total: Number(
          (await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
        ),
      }),
    }));
  }
  return { list: await toPosts(ctx, rows, locale), total };
}

/** Posts as their owner sees them: the media's names, the reason in the reader's language. */
export async function toPosts(
  ctx: AppContext,
  rows: readonly Selectable<MatrixPostsTable>[],
  locale: Locale,
): Promise<PlanPost[]> {
  // The media's names, from the plans the rows belong to.
  const planIds = [...new Set(rows.map((r) => Number(r.plan_id)))];
  const names = new Map<string, MediaRef>();
  if (planIds.length > 0) {
    const plans = await ctx.db
      .selectFrom('matrix_plans')
      .select('media')
      .where('id', 'in', planIds)
      .execute();
    for (const p of plans) {
      for (const m of JSON.parse(p.media) as MediaRef[]) names.set(`${m.type}:${m.id}`, m);
    }
  }
  const todos = await assistedTodos(ctx, rows);
  return rows.map((r): PlanPost => {
    const key = `${r.media_type}:${Number(r.media_id)}`;
    const params = r.reason_params ? (JSON.parse(r.reason_params) as Record<string, string>) : {};
    return {
      id: Number(r.id),
      plan_id: Number(r.plan_id),
      account_id: Number(r.account_id),
      media: names.get(key) ?? {
        type: r.media_type as MediaRef['type'],
        id: Number(r.media_id),
        name: '',
      },
      title: r.title,
      scheduled_at: Number(r.scheduled_at),
      status: r.status as PostStatus,
      reason:
        r.reason_id === null
          ? null
          : {
              kind: r.reason_kind ?? 'failed',
              text: isMessageId(r.reason_id) ? t(locale, r.reason_id, params) : r.reason_id,
              platform_code: r.platform_code === null ? null : Number(r.platform_code),
              platform_text: r.platform_text,
              retryable: Number(r.retryable) === 1,
            },
      share_url: r.share_url,
      published_at: r.published_at === null ? null : Number(r.published_at),
      assisted: todos.get(Number(r.id)) ?? null,
      metrics: {
        plays: Number(r.plays),
        likes: Number(r.likes),
        comments: Number(r.comments),
        shares: Number(r.shares),
      },
    };
  });
}

/** How long an assisted post's download link works. */
const DOWNLOAD_SECONDS = 3600;

/**
 * The to-dos of the assisted accounts' posts among `rows` (docs/domain.md §20): the media's file
 * to download (a signed URL, saved under the media's name) and the text to copy (title and topics).
 */
async function assistedTodos(ctx: AppContext, rows: readonly Selectable<MatrixPostsTable>[]) {
  const out = new Map<number, { download_url: string; text: string }>();
  const accountIds = [...new Set(rows.map((r) => Number(r.account_id)))];
  if (accountIds.length === 0) return out;
  const assisted = new Set(
    (
      await ctx.db
        .selectFrom('matrix_accounts')
        .select('id')
        .where('id', 'in', accountIds)
        .where('assisted', '=', 1)
        .execute()
    ).map((a) => Number(a.id)),
  );
  const mine = rows.filter((r) => assisted.has(Number(r.account_id)));
  if (mine.length === 0) return out;
  const owner = Number(mine[0].owner_id);
  const media = await findPlanMedia(
    ctx.db,
    owner,
    mine.map((r) => ({ type: r.media_type as PlanMediaType, id: Number(r.media_id) })),
  );
  const topics = new Map<number, string[]>();
  for (const plan of await ctx.db
    .selectFrom('matrix_plans')
    .select(['id', 'topics'])
    .where('id', 'in', [...new Set(mine.map((r) => Number(r.plan_id)))])
    .execute()) {
    topics.set(Number(plan.id), JSON.parse(plan.topics) as string[]);
  }
  for (const r of mine) {
    const file = media.get(`${r.media_type}:${Number(r.media_id)}`);
    if (!file) continue;
    const { url } = await ctx.storage.signedReadUrl(file.storageKey, DOWNLOAD_SECONDS, {
      download: `${file.name}.mp4`,
    });
    const tags = (topics.get(Number(r.plan_id)) ?? []).map((t) => ` #${t}`).join('');
    out.set(Number(r.id), { download_url: url, text: `${r.title}${tags}` });
  }
  return out;
}

/**
 * POST /matrix/post_mark_published: an assisted account's post was published by hand; its share
 * URL is kept. Only a waiting (or missed) post of an assisted account may be marked.
 */
export async function markPublished(
  ctx: AppContext,
  auth: AuthContext,
  body: { id: number; share_url: string },
  audit: AuditTrail,
): Promise<null> {
  const now = ctx.now();
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const post = await trx
        .selectFrom('matrix_posts as p')
        .innerJoin('matrix_accounts as a', 'a.id', 'p.account_id')
        .select(['p.status', 'p.plan_id', 'a.assisted'])
        .where('p.id', '=', body.id)
        .where('p.owner_id', '=', auth.user.id)
        .executeTakeFirst();
      if (!post) throw refuse('matrix.postNotFound');
      if (Number(post.assisted) !== 1 || !['waiting', 'missed'].includes(post.status)) {
        throw refuse('matrix.postStateChanged', { status: post.status });
      }
      audit.change({ status: post.status }, { status: 'published', share_url: body.share_url });
      await trx
        .updateTable('matrix_posts')
        .set({ status: 'published', share_url: body.share_url, published_at: now, updated_at: now })
        .where('id', '=', body.id)
        .where('status', '=', post.status)
        .execute();
      await trx
        .updateTable('matrix_plans')
        .set({ status: 'running', started_at: now, updated_at: now })
        .where('id', '=', post.plan_id)
        .where('status', '=', 'not_started')
        .execute();
      await finishPlanIfDone(trx, Number(post.plan_id), now);
    },
    { audit },
  );
  return null;
}

/**
 * POST /matrix/post_publish_now (a waiting post) and /matrix/post_retry (a failed, retryable
 * one): due now; a retried post starts over (uploaded again, created again: its earlier attempt
 * made nothing — a lost reply was reconciled before it failed).
 */
export async function queuePost(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  action: 'publish_now' | 'retry',
  audit: AuditTrail,
): Promise<null> {
  const now = ctx.now();
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const post = await trx
        .selectFrom('matrix_posts')
        .select(['status', 'retryable', 'plan_id'])
        .where('id', '=', id)
        .where('owner_id', '=', auth.user.id)
        .executeTakeFirst();
      if (!post) throw refuse('matrix.postNotFound');
      const allowed =
        action === 'publish_now'
          ? post.status === 'waiting'
          : post.status === 'failed' && Number(post.retryable) === 1;
      if (!allowed) throw refuse('matrix.postStateChanged', { status: post.status });
      audit.change({ status: post.status }, { status: 'waiting', scheduled_at: now });
      const updated = await trx
        .updateTable('matrix_posts')
        .set({
          status: 'waiting',
          scheduled_at: now,
          dispatched_at: null,
          lease_until: null,
          ...(action === 'retry'
            ? {
                platform_media_id: null,
                create_sent_at: null,
                platform_post_id: null,
                reason_kind: null,
                reason_id: null,
                reason_params: null,
                platform_code: null,
                platform_text: null,
                retryable: 0,
              }
            : {}),
          updated_at: now,
        })
        .where('id', '=', id)
        .where('status', '=', post.status)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) {
        throw refuse('matrix.postStateChanged', { status: post.status });
      }
      // A retried post reopens its plan (it may have finished with this post failed).
      await trx
        .updateTable('matrix_plans')
        .set({ status: 'running', updated_at: now })
        .where('id', '=', post.plan_id)
        .where('status', '=', 'done')
        .execute();
    },
    { audit },
  );
  return null;
}
