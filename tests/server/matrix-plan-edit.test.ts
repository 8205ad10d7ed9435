import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  PlanBody,
  PlanMediaItem,
  PlanPost,
  ReleasePlan,
} from '../../src/api/contract/matrix-plans';
import { dispatchDuePosts, publishPost } from '../../server/modules/matrix/publish';
import type * as Plans from '../../server/modules/matrix/plans';
import { api, engines, type TestApp } from './helpers';
import { sandboxWorld, type SandboxWorld } from './matrix-fixtures';
import { fixtureBytes } from './media-fixtures';
import { putResource } from './resource-fixtures';

/**
 * Editing a release plan (docs/domain.md §20): allowed until its first post starts publishing.
 * An edit checks the body like plan_add, replaces the plan's fields and every post (a new
 * schedule) in one transaction, and is audited; once a post was claimed — before the edit, or by
 * a dispatcher at the same moment — it is refused and changes nothing. Another's plan answers
 * like a missing one.
 */
vi.setConfig({ testTimeout: 60_000 });

// Runs `afterCheck` between the edit's checks and its transaction: what a dispatcher claiming a
// post "at the same moment" does, made deterministic.
const hooks = vi.hoisted(() => ({ afterCheck: null as null | (() => Promise<void>) }));
vi.mock('../../server/modules/matrix/plans', async (importOriginal) => {
  const actual = await importOriginal<typeof Plans>();
  return {
    ...actual,
    checkPlan: async (...args: Parameters<typeof Plans.checkPlan>) => {
      const checked = await actual.checkPlan(...args);
      const hook = hooks.afterCheck;
      hooks.afterCheck = null;
      await hook?.();
      return checked;
    },
  };
});

describe.each(engines)('editing a release plan on %s', (engine) => {
  let w: SandboxWorld;
  let t: TestApp;
  let merchant: string;
  let accounts: number[];
  let media: { type: 'resource'; id: number }[];

  beforeEach(async () => {
    hooks.afterCheck = null;
    w = await sandboxWorld(engine);
    t = w.t;
    merchant = await t.login('merchant');
    const sandbox = await w.sandboxAccounts();
    accounts = [
      await w.bind(sandbox[0].open_id, merchant),
      await w.bind(sandbox[1].open_id, merchant),
    ];
    const owner = (await t.user('merchant')).id;
    const bytes = await fixtureBytes('clip.mp4');
    media = [
      { type: 'resource', id: (await putResource(t, owner, { name: '开箱视频', bytes })).id },
      { type: 'resource', id: (await putResource(t, owner, { name: '探店视频', bytes })).id },
    ];
  });
  afterEach(async () => t.close());

  /** Today in Shanghai, and the days after (the test clock stands at T0). */
  const day = (offset: number) =>
    new Date(t.clock() + 8 * 3600_000 + offset * 24 * 3600_000).toISOString().slice(0, 10);

  const body = (over: Partial<PlanBody> = {}): PlanBody => ({
    name: '双十二上新',
    account_ids: accounts,
    media,
    titles: ['今天开箱这个神器', '探店发现宝藏小店'],
    topics: ['好物分享'],
    location: '310000',
    start_date: day(1),
    end_date: day(2),
    slots: ['20:00', '09:30'],
    daily_max: 2,
    ...over,
  });

  /** A second plan: one account, one video, noon on days 3 and 4 (2 posts). */
  const edited = (id: number): PlanBody & { id: number } =>
    body({
      id,
      name: '元旦预热',
      account_ids: [accounts[1]],
      media: [media[1]],
      titles: ['新年好物清单'],
      topics: [],
      location: undefined,
      start_date: day(3),
      end_date: day(4),
      slots: ['12:00'],
      daily_max: 1,
    } as Partial<PlanBody>) as PlanBody & { id: number };

  async function addPlan() {
    const reply = await t.post<{ id: number; posts: number }>('/matrix/plan_add', body(), merchant);
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.id;
  }

  async function posts(planId: number) {
    const reply = await t.get<{ list: PlanPost[]; total: number }>(
      '/matrix/post_list',
      { plan_id: String(planId), limit: '100' },
      merchant,
    );
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.list;
  }

  /** The plan's row and its posts, to show a refused edit changed nothing. */
  const stored = async (planId: number) => ({
    plan: await t.db.selectFrom('matrix_plans').selectAll().where('id', '=', planId).execute(),
    posts: await t.db
      .selectFrom('matrix_posts')
      .selectAll()
      .where('plan_id', '=', planId)
      .orderBy('id')
      .execute(),
  });

  /** Runs the publish job of each queued post, as a worker does. */
  async function runQueued() {
    const jobs = await t.db
      .selectFrom('jobs')
      .select('data')
      .where('kind', '=', 'matrix-publish')
      .execute();
    await t.db.deleteFrom('jobs').where('kind', '=', 'matrix-publish').execute();
    for (const j of jobs) {
      await publishPost(t.app.ctx, {
        id: 'test',
        kind: 'matrix-publish',
        data: JSON.parse(j.data) as { post_id: number; dispatch: number },
        attempt: 1,
        maxAttempts: 5,
        signal: new AbortController().signal,
        progress: async () => {},
      });
    }
  }

  it('an edit before the first post replaces the plan and makes its posts again, audited', async () => {
    const id = await addPlan();
    const before = await posts(id);
    expect(before).toHaveLength(8);

    const reply = await t.post<ReleasePlan>('/matrix/plan_edit', edited(id), merchant);
    expect(reply.body.code, reply.raw).toBe(1);
    expect(reply.body.data).toMatchObject({
      id,
      name: '元旦预热',
      status: 'not_started',
      start_date: day(3),
      end_date: day(4),
      slots: ['12:00'],
      daily_max: 1,
      titles: ['新年好物清单'],
      topics: [],
      location: null,
      account_ids: [accounts[1]],
      media: [{ type: 'resource', id: media[1].id, name: '探店视频' }],
      total: 2,
      counts: { waiting: 2 },
    });
    const after = await posts(id);
    // Noon in Shanghai on days 3 and 4, the one account and video; none of the old posts is left.
    expect(after.map((p) => new Date(p.scheduled_at).toISOString())).toEqual([
      `${day(3)}T04:00:00.000Z`,
      `${day(4)}T04:00:00.000Z`,
    ]);
    expect(after.every((p) => p.account_id === accounts[1] && p.media.id === media[1].id)).toBe(
      true,
    );
    expect(after.map((p) => p.title)).toEqual(['新年好物清单', '新年好物清单']);
    const oldIds = new Set(before.map((p) => p.id));
    expect(after.some((p) => oldIds.has(p.id))).toBe(false);

    const row = await t.db
      .selectFrom('audit_log')
      .select(['target_id', 'result', 'diff'])
      .where('action', '=', 'matrix.plan_edit')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ result: 'ok' });
    expect(Number(row.target_id)).toBe(id);
    expect(JSON.parse(row.diff)).toMatchObject({
      name: { before: '双十二上新', after: '元旦预热' },
      posts: { before: 8, after: 2 },
    });

    // The new posts are the ones published: due, they are claimed and sent as usual.
    t.clock.advance(5 * 24 * 3600_000);
    merchant = await t.login('merchant');
    expect(await dispatchDuePosts(t.app.ctx)).toBe(2);
    await runQueued();
    expect((await posts(id)).map((p) => p.status)).toEqual(['under_review', 'under_review']);
  });

  it('a plan paused before it started is editable and stays paused', async () => {
    const id = await addPlan();
    expect((await t.post('/matrix/plan_pause', { id }, merchant)).body.code).toBe(1);
    const reply = await t.post<ReleasePlan>('/matrix/plan_edit', edited(id), merchant);
    expect(reply.body.code, reply.raw).toBe(1);
    expect(reply.body.data).toMatchObject({ status: 'paused', total: 2, counts: { waiting: 2 } });
  });

  it('once a post was claimed the edit is refused and nothing changes', async () => {
    const id = await addPlan();
    const [first] = await posts(id);
    expect((await t.post('/matrix/post_publish_now', { id: first.id }, merchant)).body.code).toBe(
      1,
    );
    expect(await dispatchDuePosts(t.app.ctx)).toBe(1);
    await runQueued();
    const kept = await stored(id);
    const reply = await t.post('/matrix/plan_edit', edited(id), merchant);
    expect(reply.body.code).toBe(0);
    expect(reply.body.msg).toBe('该计划已不能编辑：计划只能在第一条作品开始发布前编辑');
    expect(await stored(id)).toEqual(kept);
    const refused = await t.db
      .selectFrom('audit_log')
      .select(['result', 'error_code'])
      .where('action', '=', 'matrix.plan_edit')
      .execute();
    expect(refused).toEqual([{ result: 'refused', error_code: 'matrix.planNotEditable' }]);
  });

  it('a dispatcher claiming a post during the edit makes it refuse and change nothing', async () => {
    const id = await addPlan();
    const [first] = await posts(id);
    await t.post('/matrix/post_publish_now', { id: first.id }, merchant);
    // The dispatcher takes the post (publishing, the plan running) while the edit checks its body.
    hooks.afterCheck = async () => {
      expect(await dispatchDuePosts(t.app.ctx)).toBe(1);
      await runQueued();
    };
    let kept = await stored(id);
    let reply = await t.post('/matrix/plan_edit', edited(id), merchant);
    expect(hooks.afterCheck).toBeNull();
    expect(reply.body.msg).toBe('该计划的一条作品刚刚开始发布，修改未保存：请刷新计划');
    const claimed = await stored(id);
    expect(claimed.posts.filter((p) => p.status !== 'waiting')).toHaveLength(1);
    expect(claimed.plan[0].status).toBe('running');
    expect(claimed.posts.map((p) => p.id)).toEqual(kept.posts.map((p) => p.id));

    // A post taken while its plan is not marked started yet (the dispatcher's transaction seen
    // half-way): the edit's transaction finds the post no longer waiting.
    const other = await addPlan();
    const [post] = await posts(other);
    hooks.afterCheck = async () => {
      await t.db
        .updateTable('matrix_posts')
        .set({ status: 'publishing', lease_until: t.clock() + 600_000 })
        .where('id', '=', post.id)
        .where('status', '=', 'waiting')
        .execute();
    };
    kept = await stored(other);
    reply = await t.call('POST', api('/matrix/plan_edit'), {
      token: merchant,
      body: edited(other),
      headers: { lang: 'en-US' },
    });
    expect(reply.body.code).toBe(0);
    expect(reply.body.msg).toBe(
      'A post of this plan started publishing just now, so the edit was not saved: reload the plan',
    );
    const after = await stored(other);
    expect(after.plan).toEqual(kept.plan);
    expect(after.posts.map((p) => [p.id, p.status])).toEqual(
      kept.posts.map((p) => [p.id, p.id === post.id ? 'publishing' : 'waiting']),
    );
  });

  it('another’s plan answers like a missing one', async () => {
    const id = await addPlan();
    const kept = await stored(id);
    const partner = await t.login('partner');
    const reply = await t.post('/matrix/plan_edit', edited(id), partner);
    expect(reply.body.code).toBe(0);
    expect(reply.body.msg).toBe('计划不存在');
    const missing = await t.post('/matrix/plan_edit', edited(id + 1000), merchant);
    expect(missing.body.msg).toBe('计划不存在');
    expect(await stored(id)).toEqual(kept);
  });

  it('a bad body is refused with a localised message and changes nothing', async () => {
    const id = await addPlan();
    const kept = await stored(id);
    const bad: [Partial<PlanBody> & { id?: unknown }, RegExp, RegExp][] = [
      [{ titles: ['这'.repeat(31)] }, /30/, /30/],
      [{ slots: ['25:00'] }, /HH:mm/, /HH:mm/],
      [{ start_date: day(-1) }, /今天/, /today/],
      [{ media: [{ type: 'dh_video', id: 999 }] }, /视频/, /video/],
      [{ id: 'x' }, /./, /./],
    ];
    for (const [over, zh, en] of bad) {
      const sent = { ...edited(id), ...over };
      const inZh = await t.post('/matrix/plan_edit', sent, merchant);
      expect(inZh.status).toBe(200);
      expect(inZh.body.code, JSON.stringify(over)).toBe(0);
      expect(inZh.body.msg, JSON.stringify(over)).toMatch(zh);
      const inEn = await t.call('POST', api('/matrix/plan_edit'), {
        token: merchant,
        body: sent,
        headers: { lang: 'en-US' },
      });
      expect(inEn.body.code).toBe(0);
      expect(inEn.body.msg, JSON.stringify(over)).toMatch(en);
    }
    expect(await stored(id)).toEqual(kept);
  });

  it('offers the caller’s finished outputs, and an edit publishes them instead', async () => {
    const owner = (await t.user('merchant')).id;
    const partnerId = (await t.user('partner')).id;
    const file = await t.db
      .selectFrom('resources')
      .select('storage_key')
      .where('id', '=', media[0].id)
      .executeTakeFirstOrThrow();
    /** A mixed-cut task of `ownerId` with outputs of these statuses; answers their ids. */
    async function task(ownerId: number, name: string, statuses: string[]) {
      const now = t.clock();
      const row = await t.db
        .insertInto('video_tasks')
        .values({
          owner_id: ownerId,
          kind: 'mixed',
          name,
          status: 'done',
          params: '{}',
          total: statuses.length,
          unit_price: 10,
          progress_at: now,
          created_at: now,
          updated_at: now,
          finished_at: now,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const ids: number[] = [];
      for (const [i, status] of statuses.entries()) {
        const output = await t.db
          .insertInto('video_outputs')
          .values({
            task_id: Number(row.id),
            idx: i + 1,
            status,
            combination: '{}',
            planned_ms: 1000,
            billing: 'settled',
            price: 10,
            storage_key: status === 'done' ? file.storage_key : null,
            finished_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(Number(output.id));
      }
      return ids;
    }
    const [done1, , done3] = await task(owner, '春季上新', ['done', 'failed', 'done']);
    const [theirs] = await task(partnerId, '别人的', ['done']);
    const list = async (query: Record<string, string>, token = merchant) => {
      const reply = await t.get<{ list: PlanMediaItem[]; total: number }>(
        '/matrix/plan_media_list',
        query,
        token,
      );
      expect(reply.body.code, reply.raw).toBe(1);
      return reply.body.data;
    };
    expect(await list({ type: 'video_output' })).toEqual({
      list: [
        { type: 'video_output', id: done3, name: '春季上新 #3', created_at: t.clock() },
        { type: 'video_output', id: done1, name: '春季上新 #1', created_at: t.clock() },
      ],
      total: 2,
    });
    // A "publish" link's preselection: only the usable ones of the caller's.
    const picked = await list({ type: 'video_output', ids: `${done1},${done1 + 1},${theirs}` });
    expect(picked.list.map((m) => m.id)).toEqual([done1]);
    expect(await list({ type: 'dh_video' })).toEqual({ list: [], total: 0 });
    const bad = await t.get('/matrix/plan_media_list', { type: 'resource' }, merchant);
    expect(bad.body.code).toBe(0);

    const id = await addPlan();
    const reply = await t.post<ReleasePlan>(
      '/matrix/plan_edit',
      { ...body({ media: [{ type: 'video_output', id: done1 }] }), id },
      merchant,
    );
    expect(reply.body.code, reply.raw).toBe(1);
    expect(reply.body.data.media).toEqual([
      { type: 'video_output', id: done1, name: '春季上新 #1' },
    ]);
    expect((await posts(id)).every((p) => p.media.type === 'video_output')).toBe(true);
  });
});
