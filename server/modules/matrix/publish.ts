import { createWriteStream, existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Database, Executor, MatrixPostsTable } from '../../platform/db/schema';
import { defineJob, handleJob, recurringJob } from '../../platform/jobs/define-job';
import {
  OutcomeUnknown,
  PermanentWorkFailure,
  runOutsideWork,
  type WorkFailure,
  type WorkVerdict,
} from '../../platform/jobs/outside-work';
import type { RunningJob } from '../../platform/jobs/queue';
import type { ExpressionBuilder, Selectable, Updateable } from 'kysely';
import { SocialPlatformError, type PlatformPost } from '../../integrations/social/types';
import { notifyPostTrouble } from '../notifications';
import { adapterOf } from './platforms';
import { finishPlanIfDone } from './plans';
import { dateIn } from './schedule';
import { runRelaxed, writeRelaxed, writeSynced } from '../../platform/db/transaction';
import { DATA_ZONE } from './video-data';
import { openAccessToken, refreshAccount, shownStatus } from './tokens';

/**
 * Publishing a plan's posts, each exactly once (docs/domain.md §20), through the outside-work
 * lifecycle (docs/architecture.md §The path of a job):
 * - The dispatcher (every second) takes the due posts of active plans for publishing in one write
 *   (waiting → publishing with a lease; again a post whose run died: its lease ran out, at most
 *   once per 2 minutes), each marked by `dispatched_at`, and queues a `matrix-publish` job for each
 *   in one write. A burst of 1 000 due posts is publishing within a second (bench j).
 * - The job holds its post by a conditional update (`claimed_at`, for that dispatch only, unless
 *   the lease ran out): any number of workers, embedded queue or BullMQ, one holder at a time; a
 *   job of an older dispatch finds nothing to do.
 * - It uploads the media once and saves the platform's media id with `create_sent_at` before the
 *   create (one write), then creates the post. A create that got no answer (the reply lost, the
 *   worker killed) leaves the post `unconfirmed`: the next run reconciles it against the account's
 *   recent posts — found: under review or published; not found: failed (retryable by hand) — and
 *   never simply creates it again. A definite refusal clears `create_sent_at` (nothing was made).
 * - Transient failures (network, busy, rate limited) are retried with backoff; an account that can
 *   no longer publish skips the post; other refusals fail it with the platform's code and words.
 *   Failed and skipped posts notify the plan's owner.
 * - The review poller (every 30 s, `MATRIX_REVIEW_POLL_MS`) asks the platform about posts under review: published (with the
 *   share URL and first numbers) or rejected (failed).
 */

/**
 * How long a claim holds a post (`MATRIX_PUBLISH_LEASE_MS`, default 10 minutes: longer than an
 * upload and a create ever take), and after how long a queued post not claimed is queued again (a
 * lost job): 2 minutes, or the lease if shorter.
 */
const leaseOf = (ctx: AppContext) => ctx.config.matrixPublishLeaseMs;
const redispatchAfter = (ctx: AppContext) => Math.min(2 * 60_000, leaseOf(ctx));
/** Posts queued per dispatcher pass. */
const DISPATCH_BATCH = 2000;
/** The reconciliation looks at this many of the account's latest posts. */
const RECENT_POSTS = 50;
/** A post found by its title must have been made after the create was sent, less this skew. */
const CLOCK_SKEW_MS = 5 * 60_000;

export const publishPostJob = defineJob(
  'matrix-publish',
  /** `dispatch`: the post's `dispatched_at` when it was queued (its dispatch). */
  z.object({ post_id: z.number().int().positive(), dispatch: z.number().int() }),
  { attempts: 5, backoffMs: 5_000 },
);

type PostRow = Selectable<MatrixPostsTable>;

interface Created {
  postId: string;
  review: PlatformPost['review'];
  shareUrl: string | null;
}

/** Takes the due posts for publishing and queues them (see the comment at the top); answers how many. */
export async function dispatchDuePosts(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  const notRecent = (eb: ExpressionBuilder<Database, 'matrix_posts'>) =>
    eb.or([
      eb('matrix_posts.dispatched_at', 'is', null),
      eb('matrix_posts.dispatched_at', '<', now - redispatchAfter(ctx)),
    ]);
  const lapsed = (eb: ExpressionBuilder<Database, 'matrix_posts'>) =>
    eb.and([
      eb('matrix_posts.status', 'in', ['publishing', 'unconfirmed']),
      eb.or([eb('matrix_posts.lease_until', 'is', null), eb('matrix_posts.lease_until', '<', now)]),
    ]);
  const taken = await ctx.db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('matrix_posts')
      .innerJoin('matrix_plans as pl', 'pl.id', 'matrix_posts.plan_id')
      .innerJoin('matrix_accounts as a', 'a.id', 'matrix_posts.account_id')
      .select('matrix_posts.id')
      // An assisted account's posts are to-dos for a person, never published here.
      .where('a.assisted', '=', 0)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('matrix_posts.status', '=', 'waiting'),
            eb('matrix_posts.scheduled_at', '<=', now),
            eb('pl.status', 'in', ['not_started', 'running']),
          ]),
          lapsed(eb),
        ]),
      )
      .where(notRecent)
      .orderBy('matrix_posts.scheduled_at')
      .limit(DISPATCH_BATCH)
      .execute();
    if (due.length === 0) return [];
    const rows = await trx
      .updateTable('matrix_posts')
      .set({
        status: 'publishing',
        lease_until: now + leaseOf(ctx),
        dispatched_at: now,
        claimed_at: null,
        updated_at: now,
      })
      .where(
        'id',
        'in',
        due.map((d) => Number(d.id)),
      )
      .where((eb) => eb.or([eb('matrix_posts.status', '=', 'waiting'), lapsed(eb)]))
      .where(notRecent)
      .returning(['id', 'plan_id'])
      .execute();
    const plans = [...new Set(rows.map((r) => Number(r.plan_id)))];
    if (plans.length > 0) {
      await trx
        .updateTable('matrix_plans')
        .set({ status: 'running', started_at: now, updated_at: now })
        .where('id', 'in', plans)
        .where('status', '=', 'not_started')
        .execute();
    }
    return rows;
  });
  if (taken.length === 0) return 0;
  // Queued after the commit: a job never finds its post not yet taken. Were this write lost,
  // the posts' leases run out and the next passes take them again.
  await ctx.jobs.enqueueMany(
    publishPostJob,
    taken.map((r) => ({ post_id: Number(r.id), dispatch: now })),
  );
  return taken.length;
}

/**
 * Holds the post for this run of its dispatch (see the comment at the top); null when another run
 * holds it, a later dispatch took it, or it is finished.
 */
async function claimPost(
  ctx: AppContext,
  postId: number,
  dispatch: number,
): Promise<PostRow | null> {
  const now = ctx.now();
  // Relaxed (docs/architecture.md §Durability of commits): a hold undone by a power failure is a
  // run that died holding the post, and nothing outside has been asked yet.
  const row = await writeRelaxed(ctx.db, ctx.engine, (trx) =>
    trx
      .updateTable('matrix_posts')
      .set({
        status: 'publishing',
        claimed_at: now,
        lease_until: now + leaseOf(ctx),
        updated_at: now,
      })
      .where('id', '=', postId)
      .where('dispatched_at', '=', dispatch)
      .where('status', 'in', ['publishing', 'unconfirmed'])
      .where((eb) =>
        eb.or([
          eb('claimed_at', 'is', null),
          eb('lease_until', 'is', null),
          eb('lease_until', '<', now),
        ]),
      )
      .returningAll()
      .executeTakeFirst(),
  );
  return row ?? null;
}

const setPost = (db: Executor, id: number, values: Updateable<MatrixPostsTable>) =>
  db.updateTable('matrix_posts').set(values).where('id', '=', id).execute();

/** Lets the next run (the runner's retry) claim the post at once. */
async function release(ctx: AppContext, post: PostRow, status?: string) {
  await ctx.db
    .updateTable('matrix_posts')
    .set({
      lease_until: null,
      claimed_at: null,
      updated_at: ctx.now(),
      ...(status ? { status } : {}),
    })
    .where('id', '=', post.id)
    .execute();
}

class AccountUnusable extends PermanentWorkFailure {}

const mediaTableOf = (post: PostRow) =>
  post.media_type === 'resource'
    ? 'resources'
    : post.media_type === 'video_output'
      ? 'video_outputs'
      : 'dh_videos';

/** The storage key of the post's media (null: none, or gone). */
async function mediaKeyOf(ctx: AppContext, post: PostRow): Promise<string | null> {
  const row = await ctx.db
    .selectFrom(mediaTableOf(post))
    .select('storage_key')
    .where('id', '=', post.media_id)
    .executeTakeFirst();
  return row?.storage_key ?? null;
}

/**
 * The account, its adapter and a working access token (refreshed first when expired), with the
 * plan's topics and the media's storage key: one read (a read costs the worker ≈ 0.2 ms, bench j).
 */
async function publishingAccount(ctx: AppContext, post: PostRow) {
  const mediaTable = mediaTableOf(post);
  const load = () =>
    ctx.db
      .selectFrom('matrix_accounts')
      .selectAll('matrix_accounts')
      .select((eb) => [
        eb
          .selectFrom('matrix_plans')
          .select('matrix_plans.topics')
          .where('matrix_plans.id', '=', post.plan_id)
          .as('plan_topics'),
        eb
          .selectFrom(mediaTable)
          .select('storage_key')
          .where(`${mediaTable}.id`, '=', post.media_id)
          .as('media_key'),
      ])
      .where('matrix_accounts.id', '=', post.account_id)
      .executeTakeFirstOrThrow();
  let account = await load();
  const unusable = (status: string) =>
    new AccountUnusable({ reasonId: 'matrix.post.accountUnusable', reasonParams: { status } });
  if (account.deleted_at !== null) throw unusable('deleted');
  if (
    shownStatus(account, ctx.now()) !== 'normal' &&
    shownStatus(account, ctx.now()) !== 'expiring'
  ) {
    throw unusable(shownStatus(account, ctx.now()));
  }
  const adapter = await adapterOf(ctx, account);
  if (!adapter) throw unusable('platform');
  if (Number(account.expires_at) <= ctx.now() + 60_000) {
    await refreshAccount(ctx, Number(account.id), { force: true });
    account = await load();
    const status = shownStatus(account, ctx.now());
    if (status === 'expired' || status === 'revoked') throw unusable(status);
    // Still expired: the refresh failed for now (busy, the network): try again later.
    if (Number(account.expires_at) <= ctx.now())
      throw new Error('the access token could not be refreshed yet');
  }
  return {
    adapter,
    credentials: { openId: account.open_id, accessToken: openAccessToken(ctx, account) },
    topics: JSON.parse(account.plan_topics ?? '[]') as string[],
    mediaKey: account.media_key,
  };
}

/** The post among the account's recent ones, if the platform made it. */
function findMade(post: PostRow, recent: readonly PlatformPost[]): PlatformPost | undefined {
  const sent = Number(post.create_sent_at);
  return (
    recent.find((p) => post.platform_media_id !== null && p.mediaId === post.platform_media_id) ??
    recent.find(
      (p) =>
        p.mediaId === undefined &&
        p.title.startsWith(post.title) &&
        p.createdAt >= sent - CLOCK_SKEW_MS,
    )
  );
}

/**
 * The post's media (`storageKey`) as a file of this machine: the local disk's own, else downloaded
 * into `dir`.
 */
async function mediaFile(
  ctx: AppContext,
  post: PostRow,
  storageKey: string | null,
  dir: () => string,
): Promise<string> {
  const gone = () => new PermanentWorkFailure({ reasonId: 'matrix.post.mediaGone' });
  if (!storageKey) throw gone();
  const stored = await ctx.storage.localPath(storageKey);
  if (stored) {
    // A stat of the local disk (the promise form cost 0.13 ms a post, bench j).
    if (!existsSync(stored)) throw gone();
    return stored;
  }
  const read = await ctx.storage.get(storageKey);
  if (!read) throw gone();
  const file = path.join(dir(), `media-${post.id}.mp4`);
  const body =
    read.body instanceof Readable
      ? read.body
      : Readable.from(read.body as AsyncIterable<Uint8Array>);
  await pipeline(body, createWriteStream(file));
  return file;
}

function verdictOf(error: unknown): WorkVerdict {
  if (error instanceof PermanentWorkFailure) return { permanent: error.reason };
  if (error instanceof OutcomeUnknown) return 'unknown';
  if (error instanceof SocialPlatformError) {
    if (error.social === 'unknown_outcome') return 'unknown';
    if (error.retryable) return 'transient';
    return { permanent: { reasonId: error.reasonId } };
  }
  return 'transient';
}

/** Publishes one post (the job's handler). */
export async function publishPost(
  ctx: AppContext,
  job: RunningJob<{ post_id: number; dispatch: number }>,
): Promise<void> {
  const { post_id: postId, dispatch } = job.data;
  await runOutsideWork<PostRow, Created, number>(ctx.config, job, {
    kind: 'matrix-publish',
    key: postId,
    // A directory only to download the media into (object storage); the local disk's file is read
    // in place.
    workDir: async (post) => {
      if (ctx.storage.localFiles === null) return true;
      // Files may be in a bucket of the settings only once one was in use (bench j: no read).
      if (!(await ctx.storage.mayBeElsewhere())) return false;
      const key = await mediaKeyOf(ctx, post);
      return key === null || (await ctx.storage.localPath(key)) === null;
    },
    claim: async () => {
      const unit = await claimPost(ctx, postId, dispatch);
      return unit && { unit, resumed: unit.create_sent_at !== null };
    },
    check: async (post) => {
      if (post.create_sent_at === null) return null;
      const { adapter, credentials } = await publishingAccount(ctx, post);
      const made = findMade(post, await adapter.recentPosts(credentials, RECENT_POSTS));
      if (!made) {
        throw new PermanentWorkFailure({ reasonId: 'matrix.post.unconfirmedNotFound' });
      }
      return { postId: made.postId, review: made.review, shareUrl: made.shareUrl };
    },
    perform: async (post, work) => {
      try {
        const { adapter, credentials, topics, mediaKey } = await publishingAccount(ctx, post);
        let mediaId = post.platform_media_id;
        if (mediaId === null) {
          const file = await mediaFile(ctx, post, mediaKey, () => work.dir);
          mediaId = (
            await adapter.uploadMedia(credentials, {
              path: file,
              fileName: `media-${post.id}.mp4`,
              signal: work.signal,
            })
          ).mediaId;
        }
        // The media id and the moment the create is sent, saved before it: a run after a crash
        // recognises the post by them and reconciles instead of creating it again.
        // Durable before the create, synced off the worker's loop (writeSynced).
        const sentAt = ctx.now();
        await writeSynced(ctx.db, ctx.engine, (executor) =>
          setPost(executor, postId, {
            platform_media_id: mediaId,
            create_sent_at: sentAt,
            updated_at: sentAt,
          }),
        );
        post.platform_media_id = mediaId;
        post.create_sent_at = sentAt;
        try {
          const { postId: made } = await adapter.createPost(credentials, {
            mediaId,
            title: post.title,
            topics,
            signal: work.signal,
          });
          return { postId: made, review: 'reviewing', shareUrl: null } satisfies Created;
        } catch (error) {
          if (error instanceof SocialPlatformError && error.social !== 'unknown_outcome') {
            // A definite answer: nothing was made, a later run may create it.
            await setPost(ctx.db, postId, { create_sent_at: null, updated_at: ctx.now() });
            post.create_sent_at = null;
            if (error.social === 'access_expired') {
              await ctx.db
                .updateTable('matrix_accounts')
                .set({ expires_at: ctx.now() })
                .where('id', '=', post.account_id)
                .execute();
            }
          }
          throw error;
        }
      } catch (error) {
        const unknown = verdictOf(error) === 'unknown';
        if (unknown || verdictOf(error) === 'transient')
          await release(ctx, post, unknown ? 'unconfirmed' : undefined);
        if (unknown && !(error instanceof OutcomeUnknown))
          throw new OutcomeUnknown('the create got no answer', { cause: error });
        throw error;
      }
    },
    store: async (post, made) => {
      const now = ctx.now();
      // Relaxed: undone by a power failure, the post is again one whose create was sent, and the
      // next run finds it among the account's posts (the durable write before the create).
      await runRelaxed(ctx.db, ctx.engine, async (trx) => {
        await setPost(trx, postId, {
          status:
            made.review === 'published'
              ? 'published'
              : made.review === 'rejected'
                ? 'failed'
                : 'under_review',
          platform_post_id: made.postId,
          share_url: made.shareUrl,
          published_at: made.review === 'published' ? now : null,
          lease_until: null,
          updated_at: now,
        });
        await finishPlanIfDone(trx, Number(post.plan_id), now);
      });
    },
    fail: async (post, reason, error) => failPost(ctx, post, reason, error),
    classify: (error) => verdictOf(error),
    exhausted: (error) => ({
      reasonId: error instanceof SocialPlatformError ? error.reasonId : 'social.error.transient',
    }),
  });
}

/** Fails (or, for an account that cannot publish, skips) a post and tells its owner. */
async function failPost(ctx: AppContext, post: PostRow, reason: WorkFailure, error: unknown) {
  const now = ctx.now();
  const skipped = error instanceof AccountUnusable;
  const social = error instanceof SocialPlatformError ? error : null;
  await ctx.db.transaction().execute(async (trx) => {
    await setPost(trx, Number(post.id), {
      status: skipped ? 'skipped' : 'failed',
      reason_kind: skipped
        ? 'account_unusable'
        : (social?.social ??
          (reason.reasonId === 'matrix.post.unconfirmedNotFound' ? 'unconfirmed' : 'failed')),
      reason_id: reason.reasonId,
      reason_params: JSON.stringify(reason.reasonParams ?? {}),
      platform_code: social?.platformCode ?? null,
      platform_text: social?.description ?? null,
      // By hand: anything but a file the platform cannot use (a skipped post's account may be
      // authorised again, a refused text may pass another time).
      retryable: skipped || social?.social === 'media_invalid' ? 0 : 1,
      lease_until: null,
      updated_at: now,
    });
    await notifyPostTrouble(trx, Number(post.id), skipped ? 'skipped' : 'failed', now);
    await finishPlanIfDone(trx, Number(post.plan_id), now);
  });
}

/** Asks the platform about posts under review (see the comment at the top); answers how many changed. */
export async function pollReviews(ctx: AppContext, batch = 500): Promise<number> {
  const rows = await ctx.db
    .selectFrom('matrix_posts')
    .selectAll()
    .where('status', '=', 'under_review')
    .orderBy('updated_at')
    .limit(batch)
    .execute();
  const byAccount = new Map<number, PostRow[]>();
  for (const row of rows) {
    const id = Number(row.account_id);
    byAccount.set(id, [...(byAccount.get(id) ?? []), row]);
  }
  let changed = 0;
  for (const [accountId, posts] of byAccount) {
    const account = await ctx.db
      .selectFrom('matrix_accounts')
      .selectAll()
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    const adapter = await adapterOf(ctx, account);
    if (!adapter || shownStatus(account, ctx.now()) === 'expired' || account.status === 'revoked')
      continue;
    let found: PlatformPost[];
    try {
      found = await adapter.metrics(
        { openId: account.open_id, accessToken: openAccessToken(ctx, account) },
        posts.map((p) => p.platform_post_id!).filter(Boolean),
      );
    } catch (error) {
      ctx.log.warn({ err: error, accountId }, 'review poll failed');
      continue;
    }
    const now = ctx.now();
    for (const post of posts) {
      const p = found.find((f) => f.postId === post.platform_post_id);
      if (!p || p.review === 'reviewing') continue;
      await ctx.db.transaction().execute(async (trx) => {
        if (p.review === 'published') {
          await setPost(trx, Number(post.id), {
            status: 'published',
            share_url: p.shareUrl,
            published_at: now,
            plays: p.metrics.plays,
            likes: p.metrics.likes,
            comments: p.metrics.comments,
            shares: p.metrics.shares,
            metrics_at: now,
            updated_at: now,
          });
          await trx
            .insertInto('matrix_post_days')
            .values({
              post_id: Number(post.id),
              day: dateIn(now, DATA_ZONE),
              owner_id: Number(post.owner_id),
              ...p.metrics,
            })
            .onConflict((oc) => oc.columns(['post_id', 'day']).doUpdateSet(p.metrics))
            .execute();
        } else {
          await setPost(trx, Number(post.id), {
            status: 'failed',
            reason_kind: 'content_rejected',
            reason_id: 'social.error.content_rejected',
            reason_params: '{}',
            retryable: 0,
            updated_at: now,
          });
          await notifyPostTrouble(trx, Number(post.id), 'failed', now);
        }
        await finishPlanIfDone(trx, Number(post.plan_id), now);
      });
      changed += 1;
    }
  }
  return changed;
}

/** Matrix publishing's jobs. */
export const publishJobs = [
  recurringJob<AppContext>('matrix-dispatch', 1_000, async (ctx) => {
    await dispatchDuePosts(ctx);
  }),
  handleJob(publishPostJob, publishPost, {
    concurrency: (ctx) => Math.floor(ctx.config.matrixPublishConcurrency),
  }),
  recurringJob<AppContext>(
    'matrix-review',
    (ctx) => ctx.config.matrixReviewPollMs,
    async (ctx) => {
      await pollReviews(ctx);
    },
  ),
];
