import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  NotificationCount,
  NotificationPage,
  NotificationReadReply,
} from '../../src/api/contract/notifications';
import type { VideoTaskAddReply } from '../../src/api/contract/video-tasks';
import { startAppWorker } from '../../server/app-jobs';
import { finishHeld, freezeWork, type DhTable } from '../../server/modules/digital-human/billing';
import { failClone } from '../../server/modules/digital-human/clone-jobs';
import { failVideo } from '../../server/modules/digital-human/video-job';
import { runMoney } from '../../server/modules/ledger';
import { failOutput, settleOutput } from '../../server/modules/video-tasks/billing';
import { api, createTestApp, engines, snapshot, type Reply, type TestApp } from './helpers';
import { fixtureApp, putThings, videoBody } from './dh-video-fixtures';
import { fixtureBytes } from './media-fixtures';
import { putResource } from './resource-fixtures';
import { mixedBody, putShotGroups, waitFinished } from './video-task-fixtures';

/**
 * Notifications (docs/domain.md §18): each event — a video task done, partly done or failed; a
 * clone ready or failed; a digital-human video done or failed — writes exactly one row in its
 * owner's store, in the transaction of the status; a person reads and marks only its own rows.
 * After every test, each finished task, clone and video must have its notification.
 */
const EN = { lang: 'en-US' };
const ZH = { lang: 'zh-CN' };
vi.setConfig({ testTimeout: 120_000 });

describe.each(engines)('notifications on %s', (engine) => {
  let t: TestApp;
  let merchantId: number;
  let token: string;

  beforeEach(async () => {
    t = await createTestApp(engine, {
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
    merchantId = (await t.user('merchant')).id;
    token = await t.login('merchant');
  });
  afterEach(async () => {
    try {
      await everyFinishedUnitNotified();
    } finally {
      await t.close();
    }
  });

  /** A finished unit without its notification fails the test. */
  async function everyFinishedUnitNotified() {
    const notified = async (subject: string, id: number, kind: string) =>
      t.db
        .selectFrom('notifications')
        .select('id')
        .where('subject_type', '=', subject)
        .where('subject_id', '=', id)
        .where('kind', '=', kind)
        .execute();
    const tasks = await t.db
      .selectFrom('video_tasks')
      .select(['id', 'status'])
      .where('status', 'in', ['done', 'partly_done', 'failed'])
      .execute();
    for (const task of tasks) {
      const rows = await notified('video_task', Number(task.id), `video_task.${task.status}`);
      expect(rows.length, `task ${task.id} (${task.status})`).toBeGreaterThanOrEqual(1);
    }
    const tables = [
      ['dh_image_clones', 'dh_image_clone', ['ready', 'failed']],
      ['dh_voice_clones', 'dh_voice_clone', ['ready', 'failed']],
      ['dh_videos', 'dh_video', ['done', 'failed']],
    ] as const;
    for (const [table, subject, statuses] of tables) {
      const rows = await t.db
        .selectFrom(table)
        .select(['id', 'status', 'owner_id'])
        .where('status', 'in', statuses)
        .where('billing', '!=', 'held')
        .where('finished_at', 'is not', null) // the fixtures' ready avatars were never made
        .where('owner_id', 'is not', null)
        .execute();
      for (const row of rows) {
        const found = await notified(subject, Number(row.id), `${subject}.${row.status}`);
        expect(found.length, `${table} ${row.id} (${row.status})`).toBe(1);
      }
    }
  }

  const get = <T>(url: string, query: Record<string, string> = {}, who = token, headers = EN) =>
    t.call<T>('GET', api(url), { token: who, query, headers });
  const post = <T>(url: string, body: unknown, who = token, headers = EN): Promise<Reply<T>> =>
    t.call<T>('POST', api(url), { token: who, body, headers });
  const rowsOf = (userId: number) =>
    t.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  const unread = async (who = token) =>
    (await get<NotificationCount>('/notification/unread_count', {}, who)).body.data.count;

  async function addTask(count: number, name = 'Spring sale'): Promise<number> {
    const groups: number[][] = [];
    for (let g = 0; g < 2; g += 1) {
      const ids: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        ids.push((await putResource(t, merchantId, { name: `g${g} s${i}`, durationMs: 2000 })).id);
      }
      groups.push(ids);
    }
    const reply = await post<VideoTaskAddReply>(
      '/video_task/add',
      mixedBody(groups, { count, name }),
    );
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.id;
  }
  const outputsOf = async (taskId: number) =>
    (
      await t.db
        .selectFrom('video_outputs')
        .select('id')
        .where('task_id', '=', taskId)
        .orderBy('idx')
        .execute()
    ).map((o) => Number(o.id));
  async function finish(outputId: number) {
    await t.db
      .updateTable('video_outputs')
      .set({ status: 'rendering' })
      .where('id', '=', outputId)
      .execute();
    const file = {
      storageKey: `videos/x/${outputId}`,
      posterKey: null,
      durationMs: 2400,
      size: 1,
      width: 720,
      height: 1280,
    };
    expect(await settleOutput(t.app.ctx, outputId, file)).toBe(true);
  }
  const fail = (outputId: number) =>
    failOutput(t.app.ctx, outputId, { reasonId: 'videoTask.reason.renderFailed' });

  it('a task whose videos are all made tells its owner once, with its name and counts', async () => {
    const id = await addTask(2);
    const [a, b] = await outputsOf(id);
    await finish(a);
    expect(await rowsOf(merchantId)).toEqual([]); // still running: nothing yet
    await finish(b);
    await fail(b); // a late failure of a finished output moves nothing
    const rows = await rowsOf(merchantId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'video_task.done',
      message_id: 'notice.videoTask.done',
      subject_type: 'video_task',
      read_at: null,
    });
    expect(Number(rows[0].subject_id)).toBe(id);
    expect(JSON.parse(rows[0].params)).toEqual({
      name: 'Spring sale',
      task_kind: 'mixed',
      done: 2,
      failed: 0,
      total: 2,
    });
    const page = (await get<NotificationPage>('/notification/list', { page: '1', limit: '10' }))
      .body.data;
    expect(page.list[0].text).toBe('Video task “Spring sale” is finished: 2 videos ready');
    const zh = (await get<NotificationPage>('/notification/list', {}, token, ZH)).body.data;
    expect(zh.list[0].text).toBe('视频任务“Spring sale”已完成：2 个视频已生成');
  });

  it('partly done and failed tasks tell their owner; a retried task that finishes tells again; a cancelled one does not', async () => {
    const partly = await addTask(2, 'Partly');
    const [p1, p2] = await outputsOf(partly);
    await finish(p1);
    await fail(p2);
    const failed = await addTask(1, 'Broken');
    const [f1] = await outputsOf(failed);
    await fail(f1);
    const cancelled = await addTask(1, 'Cancelled');
    expect((await post('/video_task/cancel', { id: cancelled })).body.code).toBe(1);

    let rows = await rowsOf(merchantId);
    expect(rows.map((r) => [r.kind, Number(r.subject_id), JSON.parse(r.params)])).toEqual([
      [
        'video_task.partly_done',
        partly,
        { name: 'Partly', task_kind: 'mixed', done: 1, failed: 1, total: 2 },
      ],
      [
        'video_task.failed',
        failed,
        { name: 'Broken', task_kind: 'mixed', done: 0, failed: 1, total: 1 },
      ],
    ]);
    const texts = (await get<NotificationPage>('/notification/list')).body.data.list.map(
      (n) => n.text,
    );
    expect(texts).toEqual([
      'Video task “Broken” failed: no video could be made (refunded)',
      'Video task “Partly” partly finished: 1 of 2 videos ready, 1 failed (refunded)',
    ]);

    // Retry the failed task: queued again (no notification), then made: a second one, "done".
    t.clock.advance(1000);
    expect((await post('/video_task/retry', { id: failed })).body.code).toBe(1);
    expect(await rowsOf(merchantId)).toHaveLength(2);
    await finish(f1);
    rows = await rowsOf(merchantId);
    expect(rows.map((r) => r.kind)).toEqual([
      'video_task.partly_done',
      'video_task.failed',
      'video_task.done',
    ]);
    expect(await unread()).toBe(3);
  });

  it('a really rendered task tells its owner (the worker, the renderer, the transaction)', async () => {
    const groups = await putShotGroups(t, merchantId);
    const reply = await post<VideoTaskAddReply>('/video_task/add', mixedBody(groups, { count: 1 }));
    expect(reply.body.code, reply.raw).toBe(1);
    await startAppWorker(t.app.ctx, { everyMs: 200 });
    const detail = await waitFinished(t, token, reply.body.data.id);
    expect(detail.status).toBe('done');
    const rows = await rowsOf(merchantId);
    expect(rows.map((r) => [r.kind, Number(r.subject_id)])).toEqual([
      ['video_task.done', reply.body.data.id],
    ]);
    expect(await fixtureBytes('small-silent.mp4')).toBeTruthy();
  });

  /** A held clone of the merchant's, as `add` leaves it (queued, nothing frozen). */
  async function heldClone(table: 'dh_image_clones' | 'dh_voice_clones', name: string) {
    const now = t.clock();
    const common = {
      owner_id: merchantId,
      name,
      status: 'training',
      provider: 'embedded',
      billing: 'held' as const,
      vendor_job_id: null,
      job_id: null,
      queue_position: null,
      reason_id: null,
      reason_params: null,
      reason_detail: null,
      created_at: now,
      updated_at: now,
      started_at: now,
      finished_at: null,
      deleted_at: null,
    };
    const row =
      table === 'dh_image_clones'
        ? await t.db
            .insertInto('dh_image_clones')
            .values({
              ...common,
              tier: 'standard',
              video_id: 1,
              consent_video_id: 1,
              poster_key: null,
              loop_key: null,
              width: null,
              height: null,
              vendor_ref: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        : await t.db
            .insertInto('dh_voice_clones')
            .values({
              ...common,
              public_key: null,
              gender: 'female',
              audio_id: null,
              profile: null,
              demo_key: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
    const id = Number(row.id);
    // A held row has its hold in the ledger (docs/domain.md §9): freeze nothing, as submit does.
    await runMoney(t.app.ctx, (trx) =>
      freezeWork(t.app.ctx, trx, { table, id, ownerId: merchantId, name }, 0),
    );
    return id;
  }
  const succeed = (table: DhTable, id: number, status: string) =>
    runMoney(t.app.ctx, (trx) =>
      finishHeld(t.app.ctx, trx, {
        table,
        id,
        from: ['training', 'creating'],
        set: { status },
        bill: { settle: 0 },
      }),
    );

  it('clones ready or failed, and digital-human videos done or failed, each tell their owner once', async () => {
    const imageOk = await heldClone('dh_image_clones', 'Anna');
    const imageBad = await heldClone('dh_image_clones', 'Bert');
    const voiceOk = await heldClone('dh_voice_clones', 'Cleo');
    const voiceBad = await heldClone('dh_voice_clones', 'Dora');
    expect(await succeed('dh_image_clones', imageOk, 'ready')).toBe(true);
    expect(await failClone(t.app.ctx, 'dh_image_clones', imageBad, { id: 'x' })).toBe(true);
    expect(await succeed('dh_voice_clones', voiceOk, 'ready')).toBe(true);
    expect(await failClone(t.app.ctx, 'dh_voice_clones', voiceBad, { id: 'x' })).toBe(true);
    // Run twice (a repeated callback, a crash re-run): nothing moves, nothing more is written.
    expect(await succeed('dh_image_clones', imageOk, 'ready')).toBe(false);
    expect(await failClone(t.app.ctx, 'dh_voice_clones', voiceBad, { id: 'x' })).toBe(false);

    const things = await putThings(fixtureApp(t), merchantId);
    const videoIds: number[] = [];
    for (const name of ['Evening news', 'Morning news']) {
      const reply = await post<{ id: number }>(
        '/digital_human/video_add',
        videoBody(things, { name }),
      );
      expect(reply.body.code, reply.raw).toBe(1);
      videoIds.push(reply.body.data.id);
    }
    const [videoOk, videoBad] = videoIds;
    await t.db
      .updateTable('dh_videos')
      .set({ status: 'creating' })
      .where('id', '=', videoOk)
      .execute();
    expect(await succeed('dh_videos', videoOk, 'done')).toBe(true);
    expect(
      await failVideo(t.app.ctx, videoBad, 'digitalHuman.reason.providerFailed', {}, 'x'),
    ).toBe(true);
    expect(
      await failVideo(t.app.ctx, videoBad, 'digitalHuman.reason.providerFailed', {}, 'x'),
    ).toBe(false);

    const rows = await rowsOf(merchantId);
    expect(rows.map((r) => [r.kind, Number(r.subject_id), JSON.parse(r.params)])).toEqual([
      ['dh_image_clone.ready', imageOk, { name: 'Anna' }],
      ['dh_image_clone.failed', imageBad, { name: 'Bert' }],
      ['dh_voice_clone.ready', voiceOk, { name: 'Cleo' }],
      ['dh_voice_clone.failed', voiceBad, { name: 'Dora' }],
      ['dh_video.done', videoOk, { name: 'Evening news' }],
      ['dh_video.failed', videoBad, { name: 'Morning news' }],
    ]);
    const en = (await get<NotificationPage>('/notification/list')).body.data.list.map(
      (n) => n.text,
    );
    expect(en).toEqual([
      'Digital-human video “Morning news” failed (refunded)',
      'Digital-human video “Evening news” is done',
      'Voice clone “Dora” failed (refunded)',
      'Voice clone “Cleo” is ready',
      'Image clone “Bert” failed (refunded)',
      'Image clone “Anna” is ready',
    ]);
    const zh = (await get<NotificationPage>('/notification/list', {}, token, ZH)).body.data.list;
    expect(zh.map((n) => n.text)).toEqual([
      '数字人视频“Morning news”失败（已退回）',
      '数字人视频“Evening news”已生成',
      '声音克隆“Dora”失败（已退回）',
      '声音克隆“Cleo”已就绪',
      '形象克隆“Bert”失败（已退回）',
      '形象克隆“Anna”已就绪',
    ]);
    // Nobody else was told.
    expect(await t.db.selectFrom('notifications').select('id').execute()).toHaveLength(6);
  });

  /** Notifications written straight into the store (the events are proved above). */
  async function seed(userId: number, count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const row = await t.db
        .insertInto('notifications')
        .values({
          user_id: userId,
          kind: 'dh_video.done',
          message_id: 'notice.dhVideo.done',
          params: JSON.stringify({ name: `v${i}` }),
          subject_type: 'dh_video',
          subject_id: 1000 + i,
          event_key: `seed:${userId}:${i}`,
          created_at: t.clock() + i,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    return ids;
  }

  it('pages newest first, filters the unread, marks ids or all read, and counts the unread', async () => {
    const mine = await seed(merchantId, 5);
    await seed((await t.user('merchant2')).id, 2);
    expect(await unread()).toBe(5);
    const page1 = (await get<NotificationPage>('/notification/list', { page: '1', limit: '2' }))
      .body.data;
    expect(page1.total).toBe(5);
    expect(page1.list.map((n) => n.id)).toEqual([mine[4], mine[3]]);
    const page3 = (await get<NotificationPage>('/notification/list', { page: '3', limit: '2' }))
      .body.data;
    expect(page3.list.map((n) => n.id)).toEqual([mine[0]]);

    t.clock.advance(5000);
    const read = await post<NotificationReadReply>('/notification/read', {
      ids: [mine[1], mine[3]],
    });
    expect(read.body).toMatchObject({ code: 1, data: { count: 2 } });
    expect(await unread()).toBe(3);
    const unreadPage = (await get<NotificationPage>('/notification/list', { unread: '1' })).body
      .data;
    expect(unreadPage.total).toBe(3);
    expect(unreadPage.list.map((n) => n.id)).toEqual([mine[4], mine[2], mine[0]]);
    const all = (await get<NotificationPage>('/notification/list')).body.data;
    expect(all.list.find((n) => n.id === mine[1])?.read_at).toBe(t.clock());
    // Marking read again changes nothing.
    expect(
      (await post<NotificationReadReply>('/notification/read', { ids: [mine[1]] })).body.data,
    ).toEqual({ count: 0 });

    expect(
      (await post<NotificationReadReply>('/notification/read', { all: true })).body.data,
    ).toEqual({ count: 3 });
    expect(await unread()).toBe(0);
    expect(
      (await get<NotificationPage>('/notification/list', { unread: 'true' })).body.data,
    ).toEqual({ list: [], total: 0 });
    // merchant2's stay unread.
    expect(await unread(await t.login('merchant2'))).toBe(2);
  });

  it('nobody reads or marks another person’s notifications', async () => {
    const otherId = (await t.user('merchant2')).id;
    const theirs = await seed(otherId, 2);
    await seed(merchantId, 1);
    const list = (await get<NotificationPage>('/notification/list')).body.data;
    expect(list.total).toBe(1);
    expect(list.list.some((n) => theirs.includes(n.id))).toBe(false);
    const before = await rowsOf(otherId);
    const reply = await post<NotificationReadReply>('/notification/read', { ids: theirs });
    expect(reply.body).toMatchObject({ code: 1, data: { count: 0 } });
    expect(await post<NotificationReadReply>('/notification/read', { all: true })).toMatchObject({
      body: { data: { count: 1 } },
    });
    expect(await rowsOf(otherId)).toEqual(before);
    // The admin has its own (empty) store, not everyone's.
    const admin = await t.login('admin');
    expect((await get<NotificationPage>('/notification/list', {}, admin)).body.data.total).toBe(0);
    expect(await unread(admin)).toBe(0);
  });

  it('refuses a bad selection or query with a localised message and changes nothing', async () => {
    await seed(merchantId, 2);
    const before = await rowsOf(merchantId);
    const tables = await snapshot(t.db);
    const bodies: unknown[] = [
      {},
      { ids: [] },
      { ids: ['x'] },
      { ids: [0] },
      { ids: [1], all: true },
      { all: false },
      { ids: Array.from({ length: 101 }, (_, i) => i + 1) },
      { ids: [1], extra: 1 },
    ];
    for (const body of bodies) {
      const en = await post('/notification/read', body);
      expect(en.status, JSON.stringify(body)).toBe(200);
      expect(en.body, JSON.stringify(body)).toMatchObject({ code: 0 });
      expect(en.body.msg).toMatch(/notifications to mark as read|Unknown field/);
    }
    const zh = await post('/notification/read', {}, token, ZH);
    expect(zh.body).toMatchObject({
      code: 0,
      msg: '请指定要标为已读的通知（ids，1 到 100 条），或全部',
    });
    const queries: Record<string, string>[] = [
      { page: '0' },
      { limit: '101' },
      { unread: 'maybe' },
      { x: '1' },
    ];
    for (const query of queries) {
      const reply = await get('/notification/list', query);
      expect(reply.status).toBe(200);
      expect(reply.body.code, JSON.stringify(query)).toBe(0);
    }
    expect(await rowsOf(merchantId)).toEqual(before);
    expect(await snapshot(t.db)).toEqual(tables);
  });
});
