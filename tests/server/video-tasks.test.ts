import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  VideoTaskAddReply,
  VideoTaskDetail,
  VideoTaskEstimate,
  VideoTaskPage,
} from '../../src/api/contract/video-tasks';
import type { Database } from '../../server/platform/db/schema';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { MAX_RUNS, sweepVideoTasks } from '../../server/modules/video-tasks/sweep';
import { api, createTestApp, engines, snapshot, type Reply, type TestApp } from './helpers';
import { expectReadableDetail } from './readable-detail';
import { putResource } from './resource-fixtures';
import { mixedBody } from './video-task-fixtures';

/**
 * The video tasks' calls without rendering (no worker runs): validation (each refusal, which
 * changes nothing), ownership, roles, the clip switch, the estimate, list, detail, cancel,
 * delete, and the money of add (renders: video-tasks-render.test.ts).
 */
const EN = { lang: 'en-US' };
const NAMES = ['admin', 'partner', 'agent', 'merchant', 'merchant2'] as const;
type Name = (typeof NAMES)[number];
const TASK_TABLES: (keyof Database)[] = ['video_tasks', 'video_outputs', 'resource_refs', 'jobs'];

describe.each(engines)('video task calls on %s', (engine) => {
  let t: TestApp;
  let ids: Record<Name, number>;
  let tokens: Record<Name, string>;
  let groups: number[][];

  beforeEach(async () => {
    t = await createTestApp(engine);
    ids = {} as Record<Name, number>;
    tokens = {} as Record<Name, string>;
    for (const name of NAMES) {
      ids[name] = (await t.user(name)).id;
      tokens[name] = await t.login(name);
    }
    groups = await videos('merchant', [
      [2000, 2000, 3000],
      [2000, 2000, 3000],
      [2000, 2000, 3000],
    ]);
  });
  afterEach(async () => {
    await t.close();
  });

  /** Video resources (fake bytes: nothing renders here) of the given lengths, per group. */
  async function videos(who: Name, lengths: number[][]): Promise<number[][]> {
    const out: number[][] = [];
    for (const [g, group] of lengths.entries()) {
      const row: number[] = [];
      for (const [i, ms] of group.entries()) {
        row.push(
          (await putResource(t, ids[who], { name: `g${g + 1} shot ${i + 1}`, durationMs: ms })).id,
        );
      }
      out.push(row);
    }
    return out;
  }
  const post = <T = unknown>(who: Name, url: string, body: unknown): Promise<Reply<T>> =>
    t.call<T>('POST', api(`/video_task${url}`), { token: tokens[who], body, headers: EN });
  const get = <T = unknown>(who: Name, url: string, query: Record<string, string>) =>
    t.call<T>('GET', api(`/video_task${url}`), { token: tokens[who], query, headers: EN });
  const balance = async (who: Name = 'merchant') => Number((await t.user(who)).money);
  async function state() {
    const tables: Record<string, unknown> = await snapshot(t.db);
    for (const table of TASK_TABLES) {
      tables[table] = await t.db.selectFrom(table).selectAll().execute();
    }
    return tables;
  }
  async function add(who: Name, body: unknown): Promise<number> {
    const reply = await post<VideoTaskAddReply>(who, '/add', body);
    expect(reply.body.code, reply.raw).toBe(1);
    expect(reply.body.msg).toBe('Task added');
    return reply.body.data.id;
  }

  it('estimates combinations, outputs, price and lengths, and charges nothing', async () => {
    const before = await state();
    const reply = await post<VideoTaskEstimate>('merchant', '/estimate', mixedBody(groups));
    expect(reply.body.data).toEqual({
      combinations: 27,
      outputs: 5,
      unit_cost: '0.10',
      cost: '0.50',
      balance: '1200.50',
      duration_min: 2.4,
      duration_max: 2.4,
    });
    // Each shot its own length; a repeated id counts once in its group.
    const own = {
      ...mixedBody(groups, { count: 2 }),
      shot_groups: [{ resource_ids: [...groups[0], groups[0][0]] }, { resource_ids: groups[1] }],
    };
    const reply2 = await post<VideoTaskEstimate>('merchant', '/estimate', own);
    expect(reply2.body.data).toMatchObject({
      combinations: 9,
      outputs: 2,
      duration_min: 4,
      duration_max: 6,
    });
    expect(await state()).toEqual(before);
  });

  it('keeps the chosen fit of other-shaped sources; a body without one (crop) is taken as before', async () => {
    for (const fit of ['blur', 'crop', undefined]) {
      const id = await add('merchant', mixedBody(groups, fit ? { fit } : {}));
      const detail = await get<VideoTaskDetail>('merchant', '/detail', { id: String(id) });
      expect(detail.body.data.params.fit).toBe(fit);
    }
    const clip = await add('merchant', {
      ...mixedBody(groups, { fit: 'blur' }),
      kind: 'clip',
      mode: undefined,
      count: undefined,
      shot_groups: undefined,
      resource_id: groups[0][0],
      trim: { start: 0, end: 1.5 },
    });
    const detail = await get<VideoTaskDetail>('merchant', '/detail', { id: String(clip) });
    expect(detail.body.data.params.fit).toBe('blur');
  });

  it('add freezes the price of every output in one go and queues pairwise different outputs', async () => {
    const before = await balance();
    const id = await add('merchant', mixedBody(groups, { mode: 'random', count: 20 }));
    expect(await balance()).toBe(before - 200);
    const detail = (await get<VideoTaskDetail>('merchant', '/detail', { id: String(id) })).body
      .data;
    expect(detail).toMatchObject({
      status: 'pending',
      total: 20,
      done: 0,
      cost: '2.00',
      settled: '0.00',
    });
    expect(detail.params).toMatchObject({ kind: 'mixed', count: 20, mode: 'random' });
    const combos = detail.outputs.map((o) => o.combination.map((c) => c.resource_id).join(','));
    expect(new Set(combos).size).toBe(20);
    expect(detail.outputs.every((o) => o.status === 'queued' && o.duration === 2.4)).toBe(true);
    const rows = await t.db
      .selectFrom('ledger')
      .select(['type', 'change', 'memo'])
      .where('related_type', '=', 'video_task')
      .where('related_id', '=', id)
      .execute();
    expect(rows.map((r) => [r.type, Number(r.change), r.memo])).toEqual([
      ['task_freeze', -200, 'Spring sale: 20 videos'],
    ]);
    const refs = await t.db
      .selectFrom('resource_refs')
      .selectAll()
      .where('task_id', '=', id)
      .execute();
    expect(refs.map((r) => r.resource_id).sort((a, b) => a - b)).toEqual(
      groups.flat().sort((a, b) => a - b),
    );
    expect(await reconcile(t.db)).toEqual([]);

    // The same task seeds its random picks with its id: sequential is mixed-radix order.
    const seq = await add('merchant', mixedBody(groups, { count: 4 }));
    const seqDetail = (await get<VideoTaskDetail>('merchant', '/detail', { id: String(seq) })).body
      .data;
    const [a, b, c] = groups;
    expect(seqDetail.outputs.map((o) => o.combination.map((x) => x.resource_id))).toEqual([
      [a[0], b[0], c[0]],
      [a[0], b[0], c[1]],
      [a[0], b[0], c[2]],
      [a[0], b[1], c[0]],
    ]);
  });

  it('refuses what it cannot make, each with its message, and changes nothing', async () => {
    const [other] = await videos('merchant2', [[2000]]);
    const gone = await putResource(t, ids.merchant, { name: 'gone', durationMs: 2000 });
    await t.db
      .updateTable('resources')
      .set({ deleted_at: t.clock() })
      .where('id', '=', gone.id)
      .execute();
    const pic = await putResource(t, ids.merchant, { type: 'image', name: 'pic' });
    const othersFont = await putResource(t, ids.merchant2, { type: 'font', name: 'theirs' });
    const song = await putResource(t, ids.merchant, {
      type: 'bgm',
      name: 'song',
      durationMs: 5000,
    });
    const intro = await putResource(t, ids.merchant, {
      type: 'intro',
      name: 'intro',
      durationMs: 2000,
    });
    const outro = await putResource(t, ids.merchant, {
      type: 'outro',
      name: 'outro',
      durationMs: 2000,
    });
    const [g1, g2, g3] = groups;
    const clip = (extra: Record<string, unknown>) => ({
      ...mixedBody(groups),
      kind: 'clip',
      mode: undefined,
      count: undefined,
      shot_groups: undefined,
      resource_id: g1[0],
      trim: { start: 0, end: 1.5 },
      ...extra,
    });
    const cases: [string, unknown, string][] = [
      ['missing', mixedBody([[999_999], g2]), 'Material 999999 was not found or has been deleted'],
      [
        'another’s',
        mixedBody([[other[0]], g2]),
        `Material ${other[0]} was not found or has been deleted`,
      ],
      [
        'deleted',
        mixedBody([g1, [gone.id]]),
        `Material ${gone.id} was not found or has been deleted`,
      ],
      [
        'an image as a shot',
        mixedBody([g1, [pic.id]]),
        '“pic” is not a video: choose a video, intro or outro material',
      ],
      [
        'a video as music',
        mixedBody(groups, { music_ids: [g1[0]] }),
        '“g1 shot 1” is not music: choose background music or audio',
      ],
      [
        'a video as sticker',
        mixedBody(groups, { stickers: [{ resource_id: song.id, x: 0, y: 0, width: 0.2 }] }),
        '“song” is not an image: choose an image or sticker',
      ],
      [
        'another’s font',
        mixedBody(groups, { subtitles: { text: 'Hi', font: othersFont.id } }),
        `Material ${othersFont.id} was not found or has been deleted`,
      ],
      [
        'a video as font',
        mixedBody(groups, { subtitles: { text: 'Hi', font: g1[0] } }),
        '“g1 shot 1” is not a font',
      ],
      [
        'intro + outro ≥ duration',
        mixedBody(groups, { intro_id: intro.id, outro_id: outro.id, duration: 4 }),
        'The intro and outro last 4 s: the duration (4 s) must be longer',
      ],
      [
        'trim past the end',
        clip({ trim: { start: 1, end: 2.5 } }),
        'The video lasts 2 s: keep a part that ends by then',
      ],
      [
        'more than the combinations',
        mixedBody([[g1[0]], [g2[0]], g3], { count: 4 }),
        'These shot groups make only 3 different videos: ask for at most 3',
      ],
      [
        'fit',
        mixedBody(groups, { fit: 'stretch' }),
        'Choose crop to fill or fit with a blurred background',
      ],
      ['fps', mixedBody(groups, { fps: 31 }), 'Frame rate: a whole number from 1 to 30'],
      [
        'bitrate',
        mixedBody(groups, { bitrate: 100 }),
        'Bitrate: a whole number of kbps from 150 to 1800',
      ],
      [
        'volume',
        mixedBody(groups, { music_volume: 11 }),
        'Music volume: a whole number from 0 to 10',
      ],
    ];
    const before = await state();
    for (const [what, body, msg] of cases) {
      for (const call of ['/estimate', '/add']) {
        const reply = await post('merchant', call, body);
        expect(reply.status, `${what} ${call}`).toBe(200);
        expect(reply.body, `${what} ${call}: ${reply.raw}`).toMatchObject({ code: 0, msg });
      }
    }
    expect(await state()).toEqual(before);

    // The balance: the estimate tells the price; add refuses with the amount needed.
    await t.db
      .updateTable('platform_config')
      .set({ value: '300' })
      .where('name', '=', 'video_output_cost')
      .execute();
    const estimate = await post<VideoTaskEstimate>('merchant', '/estimate', mixedBody(groups));
    expect(estimate.body.data).toMatchObject({
      unit_cost: '300.00',
      cost: '1500.00',
      balance: '1200.50',
    });
    const short = await post('merchant', '/add', mixedBody(groups));
    expect(short.body).toMatchObject({
      code: 0,
      msg: 'Insufficient balance: this needs 1500.00, the balance is 1200.50',
    });
    const zh = await t.call('POST', api('/video_task/add'), {
      token: tokens.merchant,
      body: mixedBody(groups),
      headers: { lang: 'zh-CN' },
    });
    expect(zh.body).toMatchObject({ code: 0, msg: '余额不足：需要 1500.00，当前余额 1200.50' });
    expect(await state()).toEqual({ ...before, platform_config: (await state()).platform_config });
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('answers another owner’s task like a missing one, and refuses admin and agent', async () => {
    const id = await add('merchant', mixedBody(groups));
    const before = await state();
    for (const [method, url, body] of [
      ['GET', '/detail', { id: String(id) }],
      ['POST', '/retry', { id }],
      ['POST', '/cancel', { id }],
      ['POST', '/delete', { ids: [id] }],
    ] as const) {
      const reply =
        method === 'GET'
          ? await get('merchant2', url, body as Record<string, string>)
          : await post('merchant2', url, body);
      expect(reply.body, url).toMatchObject({ code: 0, msg: 'Task not found' });
      const missing =
        method === 'GET'
          ? await get('merchant', url, { id: '999999' })
          : await post('merchant', url, url === '/delete' ? { ids: [999_999] } : { id: 999_999 });
      expect(missing.body, url).toMatchObject({ code: 0, msg: 'Task not found' });
    }
    const list = await get<VideoTaskPage>('merchant2', '/list', { kind: 'mixed' });
    expect(list.body.data).toEqual({ list: [], total: 0 });
    expect(await state()).toEqual(before);

    for (const who of ['admin', 'agent'] as const) {
      for (const [method, url, body] of [
        ['POST', '/estimate', mixedBody(groups)],
        ['POST', '/add', mixedBody(groups)],
        ['GET', '/list', undefined],
        ['GET', '/detail', undefined],
        ['POST', '/retry', { id }],
        ['POST', '/cancel', { id }],
        ['POST', '/delete', { ids: [id] }],
      ] as const) {
        const reply = await t.call(method, api(`/video_task${url}`), {
          token: tokens[who],
          body,
          headers: EN,
        });
        expect(reply.status, `${who} ${url}`).toBe(403);
        expect(reply.body).toEqual({
          code: 0,
          msg: 'You do not have permission for this action',
          data: null,
        });
      }
    }
    expect(await state()).toEqual(before);
  });

  it('refuses clip calls for a caller whose clip menus are off', async () => {
    const body = {
      kind: 'clip',
      name: 'Trimmed',
      ratio: '16:9',
      resolution: '720p',
      fps: 25,
      bitrate: 800,
      music_volume: 5,
      keep_original_sound: true,
      resource_id: groups[0][2],
      trim: { start: 0.5, end: 2.5 },
      titles: [{ text: '春季上新', size: 48, color: '#FFFFFF', position: 'top' }],
    };
    const estimate = await post<VideoTaskEstimate>('merchant', '/estimate', body);
    expect(estimate.body.data).toMatchObject({
      combinations: 1,
      outputs: 1,
      duration_min: 2,
      cost: '0.10',
    });
    const clipId = await add('merchant', body);
    await t.db
      .updateTable('users')
      .set({ show_clip_menu: 0 })
      .where('id', '=', ids.merchant)
      .execute();
    const before = await state();
    for (const reply of [
      await post('merchant', '/estimate', body),
      await post('merchant', '/add', body),
      await get('merchant', '/list', { kind: 'clip' }),
      await get('merchant', '/detail', { id: String(clipId) }),
      await post('merchant', '/cancel', { id: clipId }),
    ]) {
      expect(reply.body, reply.raw).toMatchObject({
        code: 0,
        msg: 'Smart clip is not available for this account',
      });
    }
    expect(await state()).toEqual(before);
    // Mixed-cut is not affected.
    await add('merchant', mixedBody(groups));
  });

  it('lists newest first with filters; cancel refunds; delete takes finished tasks only', async () => {
    const first = await add('merchant', mixedBody(groups, { name: 'First batch', count: 2 }));
    const second = await add('merchant', mixedBody(groups, { name: 'Second batch', count: 3 }));
    const page = (await get<VideoTaskPage>('merchant', '/list', { kind: 'mixed' })).body.data;
    expect(page.total).toBe(2);
    expect(page.list.map((x) => [x.id, x.status, x.total, x.cost])).toEqual([
      [second, 'pending', 3, '0.30'],
      [first, 'pending', 2, '0.20'],
    ]);
    const byName = (
      await get<VideoTaskPage>('merchant', '/list', { kind: 'mixed', keyword: 'first' })
    ).body.data;
    expect(byName.list.map((x) => x.id)).toEqual([first]);
    expect((await get<VideoTaskPage>('merchant', '/list', { kind: 'clip' })).body.data.total).toBe(
      0,
    );

    const running = await post('merchant', '/delete', { ids: [first] });
    expect(running.body).toMatchObject({
      code: 0,
      msg: 'Only finished tasks can be deleted (“First batch” is still running)',
    });

    const before = await balance();
    const cancelled = await post('merchant', '/cancel', { id: first });
    expect(cancelled.body).toMatchObject({
      code: 1,
      msg: 'The queued videos are cancelled and refunded',
      data: { count: 2, refunded: '0.20' },
    });
    expect(await balance()).toBe(before + 20);
    const again = await post('merchant', '/cancel', { id: first });
    expect(again.body).toMatchObject({ code: 0, msg: 'This task has no queued videos to cancel' });
    expect(await balance()).toBe(before + 20);
    expect(
      (
        await get<VideoTaskPage>('merchant', '/list', { kind: 'mixed', status: 'cancelled' })
      ).body.data.list.map((x) => x.id),
    ).toEqual([first]);

    const deleted = await post('merchant', '/delete', { ids: [first] });
    expect(deleted.body).toMatchObject({ code: 1, data: { count: 1 } });
    expect(
      await t.db.selectFrom('resource_refs').selectAll().where('task_id', '=', first).execute(),
    ).toEqual([]);
    expect((await get('merchant', '/detail', { id: String(first) })).body).toMatchObject({
      code: 0,
      msg: 'Task not found',
    });
    expect((await get<VideoTaskPage>('merchant', '/list', { kind: 'mixed' })).body.data.total).toBe(
      1,
    );
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('add with an Idempotency-Key runs once: a replay answers the same task, charged once', async () => {
    const before = await balance();
    const send = () =>
      t.call<VideoTaskAddReply>('POST', api('/video_task/add'), {
        token: tokens.merchant,
        body: mixedBody(groups, { count: 3 }),
        headers: { ...EN, 'idempotency-key': 'add-spring-sale-1' },
      });
    const [a, b] = [await send(), await send()];
    expect(a.body.code, a.raw).toBe(1);
    expect(b.body.data).toEqual(a.body.data);
    expect(await balance()).toBe(before - 30);
    const tasks = await t.db.selectFrom('video_tasks').select('id').execute();
    expect(tasks).toHaveLength(1);
    const jobs = await t.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'video-output')
      .execute();
    expect(jobs).toHaveLength(3);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('the sweep gives up on an output after its runs are used up: failed and refunded', async () => {
    const id = await add('merchant', mixedBody(groups, { count: 2 }));
    const before = await balance();
    const [first] = await t.db
      .selectFrom('video_outputs')
      .select(['id', 'job_id'])
      .where('task_id', '=', id)
      .orderBy('idx')
      .execute();
    // As after runs that all died: rendering, its job ended, every run used.
    await t.app.ctx.jobs.cancel(first.job_id!);
    await t.db
      .updateTable('video_outputs')
      .set({ status: 'rendering', attempts: MAX_RUNS })
      .where('id', '=', first.id)
      .execute();
    t.clock.advance(2 * 60_000);
    expect(await sweepVideoTasks(t.app.ctx)).toEqual({ requeued: 1, stalled: 0 });
    const detail = (await get<VideoTaskDetail>('merchant', '/detail', { id: String(id) })).body
      .data;
    expect(detail.outputs.map((o) => o.status)).toEqual(['failed', 'queued']);
    expect(detail.outputs[0].reason).toBe('The video could not be rendered');
    expect(detail.outputs[0].reason_detail).toContain(`${MAX_RUNS} runs`);
    expect(detail.status).toBe('running');
    expect(await balance()).toBe(before + 10);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('shows a failed output’s detail without the server’s paths, even one stored before', async () => {
    const id = await add('merchant', mixedBody(groups, { count: 1 }));
    const dataDir = t.app.ctx.config.dataDir;
    // As an older server stored it: ffprobe's words with the file's path, then a decoder dump.
    const stored = [
      `g1 shot 1: ffprobe exited with 1: ${dataDir}/files/videos/u3/abc.mp4: Invalid data found when processing input`,
      ...Array(12).fill('[h264 @ 0x55d0c0a8e2c0] error while decoding MB 3 4, bytestream -5'),
      `Error opening /tmp/vc-output-x1/render-y2/subtitles.ass`,
    ].join('\n');
    await t.db
      .updateTable('video_outputs')
      .set({ status: 'failed', reason_id: 'videoTask.reason.renderFailed', reason_detail: stored })
      .where('task_id', '=', id)
      .execute();
    const detail = (await get<VideoTaskDetail>('merchant', '/detail', { id: String(id) })).body
      .data;
    expect(detail.outputs[0].reason_detail).toBe(
      [
        'g1 shot 1: ffprobe exited with 1: abc.mp4: Invalid data found when processing input',
        '[h264] error while decoding MB 3 4, bytestream -5',
        'Error opening subtitles.ass',
      ].join('\n'),
    );
    expectReadableDetail(detail.outputs[0].reason_detail, t);
  });

  it('a price of 0 makes tasks free: no ledger rows', async () => {
    await t.db
      .updateTable('platform_config')
      .set({ value: '0' })
      .where('name', '=', 'video_output_cost')
      .execute();
    const before = await balance();
    const id = await add('merchant', mixedBody(groups));
    await post('merchant', '/cancel', { id });
    expect(await balance()).toBe(before);
    const rows = await t.db
      .selectFrom('ledger')
      .select('id')
      .where('related_type', '=', 'video_task')
      .execute();
    expect(rows).toEqual([]);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('partners make videos of their own resources', async () => {
    const [own] = await videos('partner', [[2000, 2000]]);
    const id = await add('partner', mixedBody([own], { count: 2 }));
    expect(
      (await get<VideoTaskDetail>('partner', '/detail', { id: String(id) })).body.data.total,
    ).toBe(2);
    const theirs = await post('partner', '/add', mixedBody(groups));
    expect(theirs.body).toMatchObject({
      code: 0,
      msg: `Material ${groups[0][0]} was not found or has been deleted`,
    });
  });
});
