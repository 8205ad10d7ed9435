import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  estimateSpeechSeconds,
  type DhAddReply,
  type DhVideoDetail,
  type DhVideoEstimate,
  type DhVideoPage,
} from '../../src/api/contract/digital-human';
import type { DhTemplateList } from '../../src/api/contract/dh-templates';
import { FRAME_SIZE } from '../../src/api/contract/video-tasks';
import type { Engine } from '../../server/platform/db/dialect';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { failVideo } from '../../server/modules/digital-human/video-job';
import { sweepDigitalHuman, DH_MAX_RUNS } from '../../server/modules/digital-human/video-sweep';
import { api, createTestApp, engines, type Reply, type TestApp } from './helpers';
import { putResource } from './resource-fixtures';
import {
  dhSnapshot,
  fixtureApp,
  putAvatar,
  putFolder,
  putThings,
  putVoice,
  videoBody,
  type DhThings,
} from './dh-video-fixtures';

/**
 * The digital-human video calls (§Rules and billing) without rendering: each
 * call with good and bad input (a refused call changes nothing), scope, billing at submit,
 * resubmit, delete, templates, the vendor callback's signature. Rendering: dh-videos-render-*.
 */
const EN = { lang: 'en-US' };
const ZH = { lang: 'zh-CN' };

describe.each(engines)('digital-human video calls on %s', (engine: Engine) => {
  let t: TestApp;
  let token: string;
  let merchantId: number;
  let things: DhThings;

  beforeEach(async () => {
    t = await createTestApp(engine);
    merchantId = (await t.user('merchant')).id;
    token = await t.login('merchant');
    things = await putThings(fixtureApp(t), merchantId);
  });
  afterEach(async () => {
    await t.close();
  });

  const post = <T>(url: string, body: unknown, as = token, headers: Record<string, string> = EN) =>
    t.call<T>('POST', api(url), { token: as, body, headers });
  const get = <T>(url: string, query: Record<string, string>, as = token, headers = EN) =>
    t.call<T>('GET', api(url), { token: as, query, headers });
  const seconds = async (username = 'merchant') =>
    Number((await t.user(username)).digital_man_seconds);
  async function add(body: unknown, headers: Record<string, string> = EN): Promise<number> {
    const reply = await post<DhAddReply>('/digital_human/video_add', body, token, headers);
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.id;
  }
  async function expectRefused(reply: Promise<Reply>, msg: string | RegExp) {
    const before = await dhSnapshot(t.db);
    const r = await reply;
    expect(r.body.code, r.raw).toBe(0);
    if (typeof msg === 'string') expect(r.body.msg).toBe(msg);
    else expect(r.body.msg).toMatch(msg);
    expect(await dhSnapshot(t.db)).toEqual(before);
  }
  const setUnitCost = (value: string) =>
    t.db
      .updateTable('platform_config')
      .set({ value })
      .where('name', '=', 'digital_man_cost')
      .execute();

  it('lists the four templates (every ratio of the video tasks) in the caller’s language', async () => {
    const en = await get<DhTemplateList>('/digital_human/template_list', {});
    expect(en.body.code, en.raw).toBe(1);
    expect(en.body.data.list.map((x) => [x.name, x.ratio, x.width, x.height])).toEqual([
      ['Portrait 9:16', '9:16', 720, 1280],
      ['Landscape 16:9', '16:9', 1280, 720],
      ['Square 1:1', '1:1', 720, 720],
      ['Classic 4:3', '4:3', 960, 720],
    ]);
    // The same frames as the video tasks' at 720p (docs/domain.md §10 "Frame").
    for (const x of en.body.data.list)
      expect(FRAME_SIZE[x.ratio]['720p']).toEqual({ width: x.width, height: x.height });
    expect(en.body.data.list[0].layout.avatar).toEqual({ x: 0, y: 0, width: 1, height: 1 });
    expect(en.body.data.list[0].cover).toBeNull();
    const zh = await get<DhTemplateList>('/digital_human/template_list', {}, token, ZH);
    expect(zh.body.data.list.map((x) => x.name)).toEqual([
      '竖屏 9:16',
      '横屏 16:9',
      '方形 1:1',
      '经典 4:3',
    ]);
  });

  it('estimates seconds and cost from the text, speed and the unit cost, charging nothing', async () => {
    const text = '大家好，欢迎来到我们的直播间。今天给大家介绍新品！';
    const before = await dhSnapshot(t.db);
    const reply = await post<DhVideoEstimate>(
      '/digital_human/video_estimate',
      videoBody(things, { text, speed: 1.5 }),
    );
    expect(reply.body.code, reply.raw).toBe(1);
    const expected = estimateSpeechSeconds(text, 1.5);
    expect(reply.body.data).toEqual({
      characters: [...text].length,
      seconds: expected,
      unit_cost: 1,
      cost: expected,
      balance: 7200,
    });
    expect(await dhSnapshot(t.db)).toEqual(before);
    await setUnitCost('3');
    const tripled = await post<DhVideoEstimate>(
      '/digital_human/video_estimate',
      videoBody(things, { text, speed: 1.5 }),
    );
    expect([tripled.body.data.unit_cost, tripled.body.data.cost]).toEqual([3, 3 * expected]);
  });

  it('adds a video: estimated seconds frozen, queued with a job, positions in the queue, reconciled', async () => {
    const body = videoBody(things);
    const cost = estimateSpeechSeconds(body.text, 1);
    const id = await add(body);
    expect(await seconds()).toBe(7200 - cost);
    const row = await t.db
      .selectFrom('dh_videos')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect([row.status, row.billing, Number(row.cost), Number(row.unit_cost)]).toEqual([
      'queued',
      'held',
      cost,
      1,
    ]);
    expect(row.provider).toBe('embedded');
    expect(row.job_id).toBeTruthy();
    const job = await t.app.ctx.jobs.get(row.job_id!);
    expect([job?.kind, job?.state]).toEqual(['dh-video', 'waiting']);
    const freeze = await t.db
      .selectFrom('ledger')
      .select(['type', 'change', 'asset', 'related_type'])
      .where('related_id', '=', id)
      .where('related_type', '=', 'dh_video')
      .execute();
    expect(freeze).toEqual([
      { type: 'task_freeze', change: -cost, asset: 'digital_man', related_type: 'dh_video' },
    ]);
    expect(await reconcile(t.db)).toEqual([]);

    const second = await add(videoBody(things, { name: 'second', text: 'One more. Please.' }));
    const detail = await get<DhVideoDetail>('/digital_human/video_detail', { id: String(second) });
    expect(detail.body.code, detail.raw).toBe(1);
    expect(detail.body.data).toMatchObject({
      id: second,
      name: 'second',
      status: 'queued',
      queue_position: 2,
      progress: 0,
      reason: null,
      reason_detail: null,
      url: null,
      cover: null,
      client: 'merchant',
      folder_id: things.folder,
      demonstration: true,
      resubmitted_from: null,
    });
    expect(detail.body.data.params).toMatchObject({ text: 'One more. Please.', speed: 1 });

    const page = await get<DhVideoPage>('/digital_human/video_list', { page: '1', limit: '10' });
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.list.map((v) => [v.id, v.queue_position])).toEqual([
      [second, 2],
      [id, 1],
    ]);
    const avatarName = page.body.data.list[0].avatar_name;
    expect(avatarName).toMatch(/^avatar /);
    const keyword = await get<DhVideoPage>('/digital_human/video_list', { keyword: 'SECO' });
    expect(keyword.body.data.list.map((v) => v.id)).toEqual([second]);
    const other = await putFolder(fixtureApp(t), merchantId, 'other');
    const byFolder = await get<DhVideoPage>('/digital_human/video_list', {
      folder_id: String(other),
    });
    expect(byFolder.body.data.total).toBe(0);
    const done = await get<DhVideoPage>('/digital_human/video_list', { status: 'done' });
    expect(done.body.data.total).toBe(0);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('takes a public voice, music and a template', async () => {
    const voice = await putVoice(fixtureApp(t), null);
    const song = await putResource(t, merchantId, { type: 'bgm', name: 'song' });
    const templates = await get<DhTemplateList>('/digital_human/template_list', {});
    const id = await add(
      videoBody(things, {
        voice_id: voice,
        music_id: song.id,
        template_id: templates.body.data.list[2].id,
      }),
    );
    const refs = await t.db
      .selectFrom('resource_refs')
      .select(['resource_id', 'task_kind'])
      .where('task_id', '=', id)
      .execute();
    expect(refs).toEqual([{ resource_id: song.id, task_kind: 'dh_video' }]);
  });

  it('refuses bad input and anything not the caller’s, changing nothing', async () => {
    const url = '/digital_human/video_add';
    const bad = (extra: Record<string, unknown>) => post(url, videoBody(things, extra));
    await expectRefused(bad({ text: '   ' }), /text/i);
    await expectRefused(bad({ text: 'a'.repeat(5001) }), /text/i);
    await expectRefused(bad({ speed: 0.4 }), /speed/i);
    await expectRefused(bad({ speed: 2.1 }), /speed/i);
    await expectRefused(bad({ volume: 2.5 }), /volume/i);
    await expectRefused(bad({ name: '' }), /name/i);
    await expectRefused(bad({ name: 'x'.repeat(51) }), /name/i);
    await expectRefused(bad({ extra: 1 }), /.+/);

    const f = fixtureApp(t);
    const merchant2 = (await t.user('merchant2')).id;
    const theirs = await putThings(f, merchant2);
    const training = await putAvatar(f, merchantId, { status: 'training' });
    const missingAvatar = 'Avatar {id} was not found or is not ready';
    for (const avatar of [theirs.avatar, training, 999_999, 2 ** 40]) {
      await expectRefused(
        bad({ avatar_id: avatar }),
        missingAvatar.replace('{id}', String(avatar)),
      );
    }
    const queuedVoice = await putVoice(f, merchantId, { status: 'queued' });
    for (const voice of [theirs.voice, queuedVoice, 999_999]) {
      await expectRefused(bad({ voice_id: voice }), `Voice ${voice} was not found or is not ready`);
    }
    for (const folder of [theirs.folder, 999_999]) {
      await expectRefused(bad({ folder_id: folder }), `Folder ${folder} was not found`);
    }
    const video = await putResource(t, merchantId, { type: 'video' });
    const theirSong = await putResource(t, merchant2, { type: 'bgm' });
    for (const music of [video.id, theirSong.id]) {
      await expectRefused(
        bad({ music_id: music }),
        `Music ${music} was not found: choose background music or audio`,
      );
    }
    await expectRefused(bad({ template_id: 999 }), 'Template 999 was not found');
    // The estimate refuses the same things.
    await expectRefused(
      post('/digital_human/video_estimate', videoBody(things, { avatar_id: theirs.avatar })),
      missingAvatar.replace('{id}', String(theirs.avatar)),
    );

    // Not enough seconds: refused with the amount needed; nothing frozen, nothing inserted.
    await setUnitCost('5000');
    const cost = 5000 * estimateSpeechSeconds(videoBody(things).text, 1);
    await expectRefused(
      post(url, videoBody(things)),
      `Not enough digital-human seconds: this needs ${cost} s, the balance is 7200 s`,
    );
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('replays an add with the same Idempotency-Key: one video, frozen once', async () => {
    const body = videoBody(things);
    const headers = { ...EN, 'idempotency-key': 'dh-video-add-0001' };
    const first = await add(body, headers);
    const again = await add(body, headers);
    expect(again).toBe(first);
    expect(await t.db.selectFrom('dh_videos').select('id').execute()).toHaveLength(1);
    expect(await seconds()).toBe(7200 - estimateSpeechSeconds(body.text, 1));
    const jobs = await t.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'dh-video')
      .execute();
    expect(jobs).toHaveLength(1);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('scope: another user’s video answers like a missing one; admin and agent are refused', async () => {
    const id = await add(videoBody(things));
    const tokens = new Map<string, string>();
    for (const user of ['merchant2', 'partner2', 'partner', 'admin', 'agent']) {
      tokens.set(user, await t.login(user)); // logging in writes to users: before the snapshot
    }
    const before = await dhSnapshot(t.db);
    for (const user of ['merchant2', 'partner2', 'partner']) {
      const other = tokens.get(user)!;
      const detail = await get('/digital_human/video_detail', { id: String(id) }, other);
      expect(detail.body).toMatchObject({ code: 0, msg: 'Video not found' });
      const list = await get<DhVideoPage>('/digital_human/video_list', {}, other);
      expect(list.body.data.total).toBe(0);
      for (const [url, body] of [
        ['/digital_human/video_rename', { id, name: 'mine now' }],
        ['/digital_human/video_delete', { ids: [id] }],
        ['/digital_human/video_resubmit', { id }],
      ] as const) {
        const reply = await post(url, body, other);
        expect(reply.body, `${user} ${url}`).toMatchObject({ code: 0, msg: 'Video not found' });
      }
    }
    for (const user of ['admin', 'agent']) {
      const other = tokens.get(user)!;
      const reply = await get('/digital_human/video_list', {}, other);
      expect(reply.body.code, reply.raw).not.toBe(1);
    }
    expect(await dhSnapshot(t.db)).toEqual(before);
    const missing = await get('/digital_human/video_detail', { id: '999999' });
    expect(missing.body).toMatchObject({ code: 0, msg: 'Video not found' });
  });

  it('renames; deletes only finished videos (files removed); resubmits as a new video frozen again', async () => {
    const body = videoBody(things);
    const cost = estimateSpeechSeconds(body.text, 1);
    const id = await add(body);
    const renamed = await post('/digital_human/video_rename', { id, name: '  new name ' });
    expect(renamed.body, renamed.raw).toMatchObject({ code: 1, msg: 'Video renamed' });
    await expectRefused(post('/digital_human/video_rename', { id, name: '' }), /name/i);
    await expectRefused(
      post('/digital_human/video_delete', { ids: [id] }),
      'Only finished videos can be deleted (“new name” is still being made)',
    );

    // It fails (as the job does after its last attempt): refunded in full.
    expect(await failVideo(t.app.ctx, id, 'dhVideo.reason.avatarGone', {}, 'gone')).toBe(true);
    expect(await failVideo(t.app.ctx, id, 'dhVideo.reason.avatarGone', {}, 'gone')).toBe(false);
    expect(await seconds()).toBe(7200);
    const failed = await get<DhVideoDetail>('/digital_human/video_detail', { id: String(id) });
    expect(failed.body.data).toMatchObject({
      status: 'failed',
      reason: 'The avatar is no longer available',
      reason_detail: 'gone',
      frozen: cost,
      settled: 0,
      refunded: cost,
      queue_position: null,
    });
    const zh = await get<DhVideoDetail>(
      '/digital_human/video_detail',
      { id: String(id) },
      token,
      ZH,
    );
    expect(zh.body.data.reason).toBe('形象已不可用');
    expect(await reconcile(t.db)).toEqual([]);

    const again = await post<DhAddReply>('/digital_human/video_resubmit', { id });
    expect(again.body, again.raw).toMatchObject({ code: 1 });
    const newId = again.body.data.id;
    expect(newId).not.toBe(id);
    expect(await seconds()).toBe(7200 - cost);
    const detail = await get<DhVideoDetail>('/digital_human/video_detail', { id: String(newId) });
    expect(detail.body.data).toMatchObject({
      name: 'new name',
      status: 'queued',
      resubmitted_from: id,
      frozen: cost,
    });
    expect(detail.body.data.params).toMatchObject({ text: body.text });
    expect(await reconcile(t.db)).toEqual([]);

    // A resubmit needs the avatar still ready.
    await t.db
      .updateTable('dh_image_clones')
      .set({ deleted_at: t.clock() })
      .where('id', '=', things.avatar)
      .execute();
    await expectRefused(
      post('/digital_human/video_resubmit', { id }),
      `Avatar ${things.avatar} was not found or is not ready`,
    );

    // Deleting the failed one hides it and removes its files.
    const key = 'dh/u1/speech-test.wav';
    await t.app.ctx.storage.put(key, Buffer.from('RIFF'), { contentType: 'audio/wav' });
    await t.db.updateTable('dh_videos').set({ speech_key: key }).where('id', '=', id).execute();
    const deleted = await post('/digital_human/video_delete', { ids: [id] });
    expect(deleted.body, deleted.raw).toMatchObject({ code: 1, data: { count: 1 } });
    expect(await t.app.ctx.storage.exists(key)).toBe(false);
    const gone = await get('/digital_human/video_detail', { id: String(id) });
    expect(gone.body).toMatchObject({ code: 0, msg: 'Video not found' });
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('the sweep re-enqueues a video whose job was lost, and fails (refunds) one that never finishes', async () => {
    const body = videoBody(things);
    const id = await add(body);
    const row = await t.db
      .selectFrom('dh_videos')
      .select('job_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(await t.app.ctx.jobs.cancel(row.job_id!)).toBe(true);
    t.clock.advance(2 * 60_000);
    expect(await sweepDigitalHuman(t.app.ctx)).toEqual({ requeued: 1, stalled: 0 });
    const requeued = await t.db
      .selectFrom('dh_videos')
      .select(['job_id', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(requeued.job_id).not.toBe(row.job_id);
    expect((await t.app.ctx.jobs.get(requeued.job_id!))?.state).toBe('waiting');

    // Every run of it died: after DH_MAX_RUNS the sweep gives up and refunds.
    await t.app.ctx.jobs.cancel(requeued.job_id!);
    await t.db
      .updateTable('dh_videos')
      .set({ attempts: DH_MAX_RUNS, status: 'creating' })
      .where('id', '=', id)
      .execute();
    t.clock.advance(2 * 60_000);
    await sweepDigitalHuman(t.app.ctx);
    const detail = await get<DhVideoDetail>('/digital_human/video_detail', { id: String(id) });
    expect(detail.body.data).toMatchObject({ status: 'failed', settled: 0 });
    expect(detail.body.data.reason).toMatch(/No run finished it/);
    expect(await seconds()).toBe(7200);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('a vendor callback with a wrong signature answers 401 and changes nothing', async () => {
    await add(videoBody(things));
    const before = await dhSnapshot(t.db);
    const reply = await t.call('POST', api('/digital_human/vendor_callback'), {
      payload: JSON.stringify({ job_id: 'x', state: 'done' }),
      headers: EN,
    });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ code: 0, msg: 'The callback’s signature is not valid' });
    expect(await dhSnapshot(t.db)).toEqual(before);
  });
});
