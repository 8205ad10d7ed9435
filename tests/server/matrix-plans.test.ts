import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MatrixAccount } from '../../src/api/contract/matrix';
import type {
  PlanBody,
  PlanPost,
  PlanPreview,
  ReleasePlan,
  VideoData,
} from '../../src/api/contract/matrix-plans';
import { dispatchDuePosts, pollReviews, publishPost } from '../../server/modules/matrix/publish';
import { pullMetrics } from '../../server/modules/matrix/video-data';
import { engines, type TestApp } from './helpers';
import { sandboxWorld, type SandboxWorld } from './matrix-fixtures';
import { fixtureBytes } from './media-fixtures';
import { putResource } from './resource-fixtures';

/**
 * Release plans (docs/domain.md §20) against the sandbox platform: checked and previewed, saved
 * with their posts, and each post published exactly once — two runners racing for the same posts,
 * a reply lost after the create (unconfirmed, then reconciled), a refusal with the platform's code
 * and a retry, a revoked account's post skipped and its owner told; pause, resume (missed) and
 * cancel; another's plans and posts answer like missing ones.
 */
vi.setConfig({ testTimeout: 60_000 });
const MINUTE = 60_000;

describe.each(engines)('release plans on %s', (engine) => {
  let w: SandboxWorld;
  let t: TestApp;
  let merchant: string;
  let accounts: number[];
  let openIds: string[];
  let media: { type: 'resource'; id: number }[];

  beforeEach(async () => {
    w = await sandboxWorld(engine);
    t = w.t;
    merchant = await t.login('merchant');
    const sandbox = await w.sandboxAccounts();
    openIds = [sandbox[0].open_id, sandbox[1].open_id];
    accounts = [await w.bind(openIds[0], merchant), await w.bind(openIds[1], merchant)];
    const owner = (await t.user('merchant')).id;
    const bytes = await fixtureBytes('clip.mp4');
    media = [
      { type: 'resource', id: (await putResource(t, owner, { name: '开箱视频', bytes })).id },
      { type: 'resource', id: (await putResource(t, owner, { name: '探店视频', bytes })).id },
    ];
  });
  afterEach(async () => t.close());

  /** Today in Shanghai, and the day after (the test clock stands at T0). */
  const day = (offset: number) =>
    new Date(t.clock() + 8 * 3600_000 + offset * 24 * 3600_000).toISOString().slice(0, 10);

  const body = (over: Partial<PlanBody> = {}): PlanBody => ({
    name: '双十二上新',
    account_ids: accounts,
    media,
    titles: ['今天开箱这个神器', '探店发现宝藏小店'],
    topics: ['好物分享', '#探店'],
    location: '310000',
    start_date: day(1),
    end_date: day(2),
    slots: ['20:00', '09:30', '09:30'],
    daily_max: 2,
    ...over,
  });

  async function addPlan(over: Partial<PlanBody> = {}) {
    const reply = await t.post<{ id: number; posts: number }>(
      '/matrix/plan_add',
      body(over),
      merchant,
    );
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  }

  async function posts(planId: number, token = merchant) {
    const reply = await t.get<{ list: PlanPost[]; total: number }>(
      '/matrix/post_list',
      { plan_id: String(planId), limit: '100' },
      token,
    );
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.list;
  }

  const sandboxPosts = async (openId: string) =>
    ((await w.control(`posts?open_id=${openId}`)).list as unknown[]).length;

  /** Runs the publish job of each queued post (what a worker does), `runners` at once per post. */
  async function runQueued(runners = 1) {
    const jobs = await t.db
      .selectFrom('jobs')
      .select(['id', 'data'])
      .where('kind', '=', 'matrix-publish')
      .execute();
    await t.db.deleteFrom('jobs').where('kind', '=', 'matrix-publish').execute();
    const job = (data: string, attempt = 1) => ({
      id: 'test',
      kind: 'matrix-publish',
      data: JSON.parse(data) as { post_id: number; dispatch: number },
      attempt,
      maxAttempts: 5,
      signal: new AbortController().signal,
      progress: async () => {},
    });
    const results = await Promise.allSettled(
      jobs.flatMap((j) =>
        Array.from({ length: runners }, () => publishPost(t.app.ctx, job(j.data))),
      ),
    );
    return results;
  }

  it('previews the schedule in the plan’s zone, saves it, and refuses what cannot be', async () => {
    const preview = await t.post<PlanPreview>('/matrix/plan_preview', body(), merchant);
    expect(preview.body.code, preview.raw).toBe(1);
    // 2 days × 2 accounts × 2 slots (09:30 once).
    expect(preview.body.data.total).toBe(8);
    expect(preview.body.data.per_media).toEqual([4, 4]);
    const first = preview.body.data.first[0];
    expect(new Date(first.scheduled_at).toISOString()).toBe(`${day(1)}T01:30:00.000Z`);
    expect(await t.db.selectFrom('matrix_plans').select('id').execute()).toHaveLength(0);

    const refusals: [Partial<PlanBody>, RegExp][] = [
      [{ start_date: day(-1) }, /今天/],
      [{ end_date: day(0), start_date: day(1) }, /结束/],
      [{ slots: ['25:00'] }, /HH:mm/],
      [{ location: '310001' }, /地区编码/],
      [{ titles: ['这'.repeat(31)] }, /30/],
      [{ topics: ['a', 'b', 'c', 'd', 'e', 'f'] }, /5/],
      [{ timezone: 'Mars/Olympus' }, /时区/],
      [{ media: [{ type: 'dh_video', id: 999 }] }, /视频/],
    ];
    for (const [over, message] of refusals) {
      const reply = await t.post('/matrix/plan_add', body(over), merchant);
      expect(reply.status).toBe(200);
      expect(reply.body.code, JSON.stringify(over)).toBe(0);
      expect(reply.body.msg, JSON.stringify(over)).toMatch(message);
    }
    // Another's accounts.
    const partner = await t.login('partner');
    expect((await t.post('/matrix/plan_add', body(), partner)).body.msg).toMatch(/账号/);

    const plan = await addPlan();
    expect(plan.posts).toBe(8);
    const list = await posts(plan.id);
    expect(list.map((p) => p.status)).toEqual(Array(8).fill('waiting'));
    expect(list[0].media.name).toBe('开箱视频');
    // Another's plans and posts look missing.
    expect((await t.get('/matrix/plan_detail', { id: String(plan.id) }, partner)).body.code).toBe(
      0,
    );
    expect(await posts(plan.id, partner)).toEqual([]);
    expect((await t.post('/matrix/post_publish_now', { id: list[0].id }, partner)).body.code).toBe(
      0,
    );
  });

  it('publishes each post exactly once with two runners racing, then sees it published', async () => {
    const plan = await addPlan();
    // Due: a day and a half later every post is due.
    t.clock.advance(3 * 24 * 3600_000);
    merchant = await t.login('merchant');
    expect(await dispatchDuePosts(t.app.ctx)).toBe(8);
    expect(await dispatchDuePosts(t.app.ctx)).toBe(0);
    await runQueued(2);
    let list = await posts(plan.id);
    expect(list.map((p) => p.status)).toEqual(Array(8).fill('under_review'));
    expect((await sandboxPosts(openIds[0])) + (await sandboxPosts(openIds[1]))).toBe(8);

    await w.control('clock', { advance_seconds: 120 });
    expect(await pollReviews(t.app.ctx)).toBe(8);
    list = await posts(plan.id);
    expect(list.every((p) => p.status === 'published' && p.share_url)).toBe(true);
    const detail = await t.get<ReleasePlan>(
      '/matrix/plan_detail',
      { id: String(plan.id) },
      merchant,
    );
    expect(detail.body.data.status).toBe('done');
    expect(detail.body.data.counts).toEqual({ published: 8 });

    // Video data: the numbers grow on the platform and are pulled (recent posts every 30 min).
    const firstRead = list.reduce((sum, p) => sum + p.metrics.plays, 0);
    t.clock.advance(26 * 3600_000);
    merchant = await t.login('merchant');
    expect(await pullMetrics(t.app.ctx)).toBe(8);
    expect(await pullMetrics(t.app.ctx)).toBe(0);
    const data = await t.get<VideoData>(
      '/matrix/video_data',
      { from: String(t.clock() - 7 * 24 * 3600_000), to: String(t.clock()) },
      merchant,
    );
    expect(data.body.code, data.raw).toBe(1);
    const v = data.body.data;
    expect(v.totals.posts).toBe(8);
    expect(v.totals.plays).toBeGreaterThan(firstRead);
    expect(v.rows).toHaveLength(8);
    expect(v.top[0].metrics.plays).toBe(Math.max(...v.rows.map((r) => r.metrics.plays)));
    expect(v.accounts.map((a) => a.posts).sort()).toEqual([4, 4]);
    // The days' gains add up to the totals; two days have numbers (the first read, a day later).
    expect(v.daily).toHaveLength(2);
    expect(v.daily.reduce((sum, d) => sum + d.plays, 0)).toBe(v.totals.plays);
    const byAccount = await t.get<VideoData>(
      '/matrix/video_data',
      {
        account_id: String(accounts[0]),
        from: String(t.clock() - 30 * 24 * 3600_000),
        to: String(t.clock()),
      },
      merchant,
    );
    expect(byAccount.body.data.totals.posts).toBe(4);
    const partner = await t.login('partner');
    const theirs = await t.get<VideoData>(
      '/matrix/video_data',
      { from: String(t.clock() - 30 * 24 * 3600_000), to: String(t.clock()) },
      partner,
    );
    expect(theirs.body.data.totals.posts).toBe(0);
  });

  it('a lost reply leaves the post unconfirmed; the next run finds it instead of posting again', async () => {
    const plan = await addPlan({ account_ids: [accounts[0]], daily_max: 1, end_date: day(1) });
    await w.control('lose_reply', { open_id: openIds[0], times: 1 });
    const [post] = await posts(plan.id);
    expect((await t.post('/matrix/post_publish_now', { id: post.id }, merchant)).body.code).toBe(1);
    expect(await dispatchDuePosts(t.app.ctx)).toBe(1);
    const first = await runQueued();
    expect(first[0].status).toBe('rejected');
    expect((await posts(plan.id))[0].status).toBe('unconfirmed');
    expect(await sandboxPosts(openIds[0])).toBe(1);
    // The runner's retry (here: the dispatcher again, two minutes on).
    t.clock.advance(3 * MINUTE);
    merchant = await t.login('merchant');
    expect(await dispatchDuePosts(t.app.ctx)).toBe(1);
    await runQueued();
    // Found among the account's posts (published by now: three minutes passed on the platform).
    const [found] = await posts(plan.id);
    expect(found.status).toBe('published');
    expect(found.share_url).toMatch(/\/sandbox-platform\/share\/video\//);
    expect(await sandboxPosts(openIds[0])).toBe(1);
  });

  it('a refusal shows the platform’s code and words, tells the owner; retry publishes it', async () => {
    const plan = await addPlan({ account_ids: [accounts[0]], daily_max: 1, end_date: day(1) });
    await w.control('fail', { open_id: openIds[0], code: 2113001, times: 1 });
    const [post] = await posts(plan.id);
    await t.post('/matrix/post_publish_now', { id: post.id }, merchant);
    await dispatchDuePosts(t.app.ctx);
    await runQueued();
    const [failed] = await posts(plan.id);
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatchObject({
      kind: 'content_rejected',
      platform_code: 2113001,
      retryable: true,
    });
    const notices = await t.db
      .selectFrom('notifications')
      .select(['kind', 'subject_id'])
      .where('kind', 'like', 'matrix_post.%')
      .execute();
    expect(notices.map((n) => [n.kind, Number(n.subject_id)])).toEqual([
      ['matrix_post.failed', plan.id],
    ]);

    expect((await t.post('/matrix/post_retry', { id: post.id }, merchant)).body.code).toBe(1);
    await dispatchDuePosts(t.app.ctx);
    await runQueued();
    expect((await posts(plan.id))[0].status).toBe('under_review');
    expect(await sandboxPosts(openIds[0])).toBe(1);
  });

  it('a post of a revoked account is skipped and its owner told', async () => {
    const plan = await addPlan({ daily_max: 1, end_date: day(1) });
    await w.control('revoke', { open_id: openIds[1] });
    await t.db
      .updateTable('matrix_accounts')
      .set({ status: 'revoked' })
      .where('id', '=', accounts[1])
      .execute();
    for (const p of await posts(plan.id))
      await t.post('/matrix/post_publish_now', { id: p.id }, merchant);
    await dispatchDuePosts(t.app.ctx);
    await runQueued();
    const byAccount = new Map((await posts(plan.id)).map((p) => [p.account_id, p]));
    expect(byAccount.get(accounts[0])!.status).toBe('under_review');
    expect(byAccount.get(accounts[1])!.status).toBe('skipped');
    const notices = await t.db
      .selectFrom('notifications')
      .select('kind')
      .where('kind', 'like', 'matrix_post.%')
      .execute();
    expect(notices.map((n) => n.kind)).toEqual(['matrix_post.skipped']);
  });

  it('a post whose file is gone fails with that reason, and nothing is posted', async () => {
    const plan = await addPlan({ daily_max: 1, end_date: day(1) });
    // The local disk's file is read in place (no copy): deleted, the run finds it missing.
    for (const m of media) {
      const { storage_key } = await t.db
        .selectFrom('resources')
        .select('storage_key')
        .where('id', '=', m.id)
        .executeTakeFirstOrThrow();
      await t.app.ctx.storage.delete(storage_key!);
    }
    for (const p of await posts(plan.id))
      await t.post('/matrix/post_publish_now', { id: p.id }, merchant);
    await dispatchDuePosts(t.app.ctx);
    await runQueued();
    const failed = await t.db
      .selectFrom('matrix_posts')
      .select(['status', 'reason_id'])
      .where('plan_id', '=', plan.id)
      .execute();
    expect(failed).toEqual(
      failed.map(() => ({ status: 'failed', reason_id: 'matrix.post.mediaGone' })),
    );
    expect(failed.length).toBe(2);
    expect(await sandboxPosts(openIds[0])).toBe(0);
    expect(await sandboxPosts(openIds[1])).toBe(0);
  });

  it('pause keeps posts waiting, resume turns the past-due ones missed, cancel cancels the rest', async () => {
    const plan = await addPlan();
    const paused = await t.post<ReleasePlan>('/matrix/plan_pause', { id: plan.id }, merchant);
    expect(paused.body.data.status).toBe('paused');
    // A day and 14 hours on: the first day's posts are past due.
    t.clock.advance(38 * 3600_000);
    merchant = await t.login('merchant');
    expect(await dispatchDuePosts(t.app.ctx)).toBe(0);
    const resumed = await t.post<ReleasePlan>('/matrix/plan_resume', { id: plan.id }, merchant);
    expect(resumed.body.data.status).toBe('not_started');
    expect(resumed.body.data.counts).toEqual({ missed: 4, waiting: 4 });
    const cancelled = await t.post<ReleasePlan>('/matrix/plan_cancel', { id: plan.id }, merchant);
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      counts: { missed: 4, cancelled: 4 },
    });
    expect((await t.post('/matrix/plan_resume', { id: plan.id }, merchant)).body.code).toBe(0);
  });

  it('a plan’s counts follow every change of its posts; its pages are ranges of its schedule', async () => {
    // 3 days × 2 accounts × 2 slots a day.
    const plan = await addPlan({ end_date: day(3) });
    expect(plan.posts).toBe(12);
    const inDb = async () => {
      const rows = await t.db
        .selectFrom('matrix_posts')
        .select(['status'])
        .where('plan_id', '=', plan.id)
        .execute();
      const counts: Record<string, number> = {};
      for (const r of rows) counts[r.status] = (counts[r.status] ?? 0) + 1;
      return counts;
    };
    const detail = async () =>
      (await t.get<ReleasePlan>('/matrix/plan_detail', { id: String(plan.id) }, merchant)).body.data
        .counts;
    const page = async (n: number, status?: string) => {
      const reply = await t.get<{ list: PlanPost[]; total: number }>(
        '/matrix/post_list',
        { plan_id: String(plan.id), page: String(n), limit: '5', ...(status ? { status } : {}) },
        merchant,
      );
      expect(reply.body.code, reply.raw).toBe(1);
      return reply.body.data;
    };
    const inOrder = async (status?: string) =>
      (
        await t.db
          .selectFrom('matrix_posts')
          .select('id')
          .where('plan_id', '=', plan.id)
          .$if(status !== undefined, (q) => q.where('status', '=', status!))
          .orderBy('scheduled_at')
          .orderBy('id')
          .execute()
      ).map((r) => Number(r.id));
    const pages = [await page(1), await page(2), await page(3), await page(4)];
    expect(pages.map((p) => p.total)).toEqual([12, 12, 12, 12]);
    expect(pages.map((p) => p.list.length)).toEqual([5, 5, 2, 0]);
    expect(pages.flatMap((p) => p.list.map((r) => r.id))).toEqual(await inOrder());

    // Publish the first post now, pause, resume a day and a half later, cancel the rest.
    const [first] = await posts(plan.id);
    await t.post('/matrix/post_publish_now', { id: first.id }, merchant);
    expect(await dispatchDuePosts(t.app.ctx)).toBe(1);
    expect(await detail()).toEqual(await inDb());
    await runQueued();
    expect(await detail()).toEqual({ under_review: 1, waiting: 11 });
    await t.post('/matrix/plan_pause', { id: plan.id }, merchant);
    t.clock.advance(38 * 3600_000);
    merchant = await t.login('merchant');
    await t.post('/matrix/plan_resume', { id: plan.id }, merchant);
    expect(await detail()).toEqual(await inDb());
    const waiting = await inOrder('waiting');
    expect(
      [...(await page(1, 'waiting')).list, ...(await page(2, 'waiting')).list].map((p) => p.id),
    ).toEqual(waiting);
    await t.post('/matrix/plan_cancel', { id: plan.id }, merchant);
    expect(await detail()).toEqual(await inDb());
    expect(Object.values(await detail()).reduce((a, b) => a + b, 0)).toBe(12);
  });

  it('an assisted account’s posts are to-dos: the file and the text, marked published by hand', async () => {
    const added = await t.post<MatrixAccount>(
      '/matrix/account_add_assisted',
      { platform: 'xiaohongshu', nickname: '小红书店铺' },
      merchant,
    );
    expect(added.body.code, added.raw).toBe(1);
    expect(added.body.data).toMatchObject({
      platform: 'xiaohongshu',
      assisted: true,
      status: 'normal',
    });
    const plan = await addPlan({
      account_ids: [added.body.data.id],
      daily_max: 1,
      end_date: day(1),
    });
    const [post] = await posts(plan.id);
    expect(post.assisted?.text).toBe(`${post.title} #好物分享 #探店`);
    const file = await t.call(
      'GET',
      new URL(post.assisted!.download_url, 'http://x').pathname +
        new URL(post.assisted!.download_url, 'http://x').search,
    );
    expect(file.status).toBe(200);
    // Due, it is never sent to a platform: it waits for the person.
    await t.post('/matrix/post_publish_now', { id: post.id }, merchant);
    expect(await dispatchDuePosts(t.app.ctx)).toBe(0);
    const bad = await t.post(
      '/matrix/post_mark_published',
      { id: post.id, share_url: 'not a link' },
      merchant,
    );
    expect(bad.body.code).toBe(0);
    const marked = await t.post(
      '/matrix/post_mark_published',
      { id: post.id, share_url: 'https://www.xiaohongshu.com/explore/abc' },
      merchant,
    );
    expect(marked.body.code, marked.raw).toBe(1);
    const [done] = await posts(plan.id);
    expect(done).toMatchObject({
      status: 'published',
      share_url: 'https://www.xiaohongshu.com/explore/abc',
    });
    const detail = await t.get<ReleasePlan>(
      '/matrix/plan_detail',
      { id: String(plan.id) },
      merchant,
    );
    expect(detail.body.data.status).toBe('done');
    // An API account's post cannot be marked by hand.
    const api = await addPlan({ account_ids: [accounts[0]], daily_max: 1, end_date: day(1) });
    const [apiPost] = await posts(api.id);
    expect(apiPost.assisted).toBeNull();
    expect(
      (
        await t.post(
          '/matrix/post_mark_published',
          { id: apiPost.id, share_url: 'https://x.y/z' },
          merchant,
        )
      ).body.code,
    ).toBe(0);
  });
});
