import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  DhAddReply,
  ImageClonePage,
  VoiceClonePage,
} from '../../src/api/contract/digital-human';
import type { Engine } from '../../server/platform/db/dialect';
import { failClone } from '../../server/modules/digital-human/clone-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { addMedia, cloneFixture, fullSnapshot } from './dh-clone-fixtures';
import { api, createTestApp, engines, type Reply, type TestApp } from './helpers';

/**
 * The clone calls without running their jobs: input
 * checks (a refused call changes nothing), scope, billing at submit, delete, the admin's lists.
 * The jobs themselves: dh-clones-jobs-*.test.ts.
 */
const EN = { lang: 'en-US' };
const WHO = ['admin', 'partner', 'merchant', 'partner2', 'merchant2'] as const;
type Who = (typeof WHO)[number];

vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  for (const name of ['take.mp4', 'short.mp4', 'consent.mp4', 'sample.mp3', 'short.mp3'] as const) {
    await cloneFixture(name);
  }
});

describe.each(engines)('clone calls on %s', (engine: Engine) => {
  let t: TestApp;
  const tokens = {} as Record<Who, string>;
  const ids = {} as Record<Who, number>;

  beforeEach(async () => {
    t = await createTestApp(engine);
    for (const who of WHO) {
      tokens[who] = await t.login(who);
      ids[who] = Number((await t.user(who)).id);
    }
  });
  afterEach(async () => {
    await t.close();
  });

  const post = <T>(who: Who, url: string, body: unknown, headers: Record<string, string> = {}) =>
    t.call<T>('POST', api(url), { token: tokens[who], body, headers: { ...EN, ...headers } });
  const get = <T>(who: Who, url: string, query: Record<string, string> = {}) =>
    t.call<T>('GET', api(url), { token: tokens[who], query, headers: EN });
  const balances = async (who: Who) => {
    const user = await t.user(who);
    return { image: Number(user.image_clone_count), voice: Number(user.voice_clone_count) };
  };
  async function refused(reply: Reply, message: string | RegExp, before: unknown) {
    expect(reply.body.code, reply.raw).not.toBe(1);
    if (typeof message === 'string') expect(reply.body.msg).toBe(message);
    else expect(reply.body.msg).toMatch(message);
    expect(await fullSnapshot(t)).toEqual(before);
  }

  it('image_clone_add freezes one image clone, references its videos and lists it for its owner and the admin only', async () => {
    const video = await addMedia(t, ids.merchant, 'take.mp4');
    const consent = await addMedia(t, ids.merchant, 'consent.mp4');
    const before = await balances('merchant');
    const body = { name: ' Host ', video_id: video, consent_video_id: consent, tier: 'standard' };
    const reply = await post<DhAddReply>('merchant', '/digital_human/image_clone_add', body, {
      'idempotency-key': 'clone-add-0001',
    });
    expect(reply.body.code, reply.raw).toBe(1);
    expect(reply.body.msg).toBe('Image clone submitted: it is being trained');
    const id = reply.body.data.id;
    // The same key again: the same answer, nothing more frozen.
    const again = await post<DhAddReply>('merchant', '/digital_human/image_clone_add', body, {
      'idempotency-key': 'clone-add-0001',
    });
    expect(again.body.data.id).toBe(id);
    expect(await balances('merchant')).toEqual({ ...before, image: before.image - 1 });

    const row = await t.db
      .selectFrom('dh_image_clones')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect([row.status, row.billing, Number(row.cost), row.provider, row.name]).toEqual([
      'queued',
      'held',
      1,
      'embedded',
      'Host',
    ]);
    expect(row.job_id).toBeTruthy();
    const refs = await t.db
      .selectFrom('resource_refs')
      .select('resource_id')
      .where('task_kind', '=', 'dh_image_clone')
      .where('task_id', '=', id)
      .execute();
    expect(refs.map((r) => Number(r.resource_id)).sort()).toEqual([video, consent].sort());
    const ledger = await t.db
      .selectFrom('ledger')
      .select(['type', 'change', 'asset'])
      .where('related_type', '=', 'dh_image_clone')
      .where('related_id', '=', id)
      .execute();
    expect(ledger.map((l) => [l.type, Number(l.change), l.asset])).toEqual([
      ['task_freeze', -1, 'image_clone'],
    ]);
    expect(await reconcile(t.db)).toEqual([]);

    const mine = await get<ImageClonePage>('merchant', '/digital_human/image_clone_list');
    expect(mine.body.data.total).toBe(1);
    expect(mine.body.data.list[0]).toMatchObject({
      id,
      name: 'Host',
      owner_name: 'merchant',
      status: 'queued',
      tier: 'standard',
      cover: null,
      reason: null,
      demonstration: true,
      cost: 1,
      refunded: 0,
    });
    for (const who of ['partner', 'partner2', 'merchant2'] as const) {
      const other = await get<ImageClonePage>(who, '/digital_human/image_clone_list');
      expect(other.body.data, who).toEqual({ list: [], total: 0 });
    }
    const admin = await get<ImageClonePage>('admin', '/digital_human/image_clone_list', {
      status: 'queued',
    });
    expect(admin.body.data.list.map((c) => [c.id, c.owner_name])).toEqual([[id, 'merchant']]);
    const filtered = await get<ImageClonePage>('admin', '/digital_human/image_clone_list', {
      keyword: 'nobody',
    });
    expect(filtered.body.data.total).toBe(0);
  });

  it('image_clone_add refuses bad input and changes nothing', async () => {
    const video = await addMedia(t, ids.merchant, 'take.mp4');
    const consent = await addMedia(t, ids.merchant, 'consent.mp4');
    const short = await addMedia(t, ids.merchant, 'short.mp4');
    const sample = await addMedia(t, ids.merchant, 'sample.mp3');
    const othersVideo = await addMedia(t, ids.partner2, 'take.mp4');
    const body = { name: 'Host', video_id: video, consent_video_id: consent, tier: 'standard' };
    const before = await fullSnapshot(t);
    const add = (extra: Record<string, unknown>, who: Who = 'merchant') =>
      post(who, '/digital_human/image_clone_add', {
        ...body,
        ...extra,
      });
    await refused(
      await add({ video_id: 999_999 }),
      'Material 999999 was not found or has been deleted',
      before,
    );
    await refused(
      await add({ video_id: othersVideo }),
      `Material ${othersVideo} was not found or has been deleted`,
      before,
    );
    await refused(
      await add({ video_id: sample }),
      '“sample.mp3” is not a video: choose a video material',
      before,
    );
    await refused(
      await add({ video_id: short }),
      /^The source video lasts 5(\.\d+)? s: it must last 30–600 s$/,
      before,
    );
    await refused(
      await add({ consent_video_id: video }),
      'The consent video must be another video than the source video',
      before,
    );
    await refused(
      await add({ consent_video_id: othersVideo }),
      `Material ${othersVideo} was not found or has been deleted`,
      before,
    );
    await refused(await add({ tier: 'gold' }), 'Choose a model tier', before);
    await refused(await add({ name: '  ' }), 'Name: 1 to 30 characters', before);
    // merchant2 has no image clone left: refused with the amount needed.
    const m2video = await addMedia(t, ids.merchant2, 'take.mp4');
    const m2consent = await addMedia(t, ids.merchant2, 'consent.mp4');
    const m2before = await fullSnapshot(t);
    await refused(
      await post('merchant2', '/digital_human/image_clone_add', {
        ...body,
        video_id: m2video,
        consent_video_id: m2consent,
      }),
      'Not enough image clones: this needs 1, the balance is 0',
      m2before,
    );
    // Admin and agent do not clone.
    expect((await post('admin', '/digital_human/image_clone_add', body)).status).toBe(403);
  });

  it('image_clone_delete: queued refused, another’s like missing, ready or failed ones hidden with their references dropped', async () => {
    const video = await addMedia(t, ids.merchant, 'take.mp4');
    const consent = await addMedia(t, ids.merchant, 'consent.mp4');
    const reply = await post<DhAddReply>('merchant', '/digital_human/image_clone_add', {
      name: 'Host',
      video_id: video,
      consent_video_id: consent,
      tier: 'advanced',
    });
    const id = reply.body.data.id;
    let before = await fullSnapshot(t);
    await refused(
      await post('merchant', '/digital_human/image_clone_delete', { ids: [id] }),
      'Only ready or failed clones can be deleted (“Host” is still being trained)',
      before,
    );
    await refused(
      await post('partner', '/digital_human/image_clone_delete', { ids: [id] }),
      'Image clone not found',
      before,
    );
    await refused(
      await post('merchant2', '/digital_human/image_clone_delete', { ids: [id] }),
      'Image clone not found',
      before,
    );
    // A failure refunds the unit once.
    const balance = await balances('merchant');
    expect(
      await failClone(t.app.ctx, 'dh_image_clones', id, {
        id: 'digitalHuman.reason.notOneTake',
        params: { count: 2 },
      }),
    ).toBe(true);
    expect(
      await failClone(t.app.ctx, 'dh_image_clones', id, {
        id: 'digitalHuman.reason.providerFailed',
      }),
    ).toBe(false);
    expect(await balances('merchant')).toEqual({ ...balance, image: balance.image + 1 });
    expect(await reconcile(t.db)).toEqual([]);
    const listed = await get<ImageClonePage>('merchant', '/digital_human/image_clone_list');
    expect(listed.body.data.list[0]).toMatchObject({
      status: 'failed',
      reason:
        'The source video is not one continuous take (2 scene changes found): record it without cuts',
      cost: 1,
      refunded: 1,
    });
    const zh = await t.call<ImageClonePage>('GET', api('/digital_human/image_clone_list'), {
      token: tokens.merchant,
      headers: { lang: 'zh-CN' },
    });
    expect(zh.body.data.list[0].reason).toBe(
      '源视频不是一镜到底（检测到 2 处镜头切换）：请连续拍摄、不要剪辑',
    );
    before = await fullSnapshot(t);
    await refused(
      await post('partner2', '/digital_human/image_clone_delete', { ids: [id] }),
      'Image clone not found',
      before,
    );
    const deleted = await post<{ count: number }>('merchant', '/digital_human/image_clone_delete', {
      ids: [id, id],
    });
    expect(deleted.body.data).toEqual({ count: 1 });
    const refs = await t.db
      .selectFrom('resource_refs')
      .select('resource_id')
      .where('task_kind', '=', 'dh_image_clone')
      .execute();
    expect(refs).toEqual([]);
    expect(
      (await get<ImageClonePage>('merchant', '/digital_human/image_clone_list')).body.data.total,
    ).toBe(0);
    expect(
      (await get<ImageClonePage>('admin', '/digital_human/image_clone_list')).body.data.total,
    ).toBe(0);
  });

  it('voice_clone_add freezes one voice clone; bad input and a short balance change nothing', async () => {
    const sample = await addMedia(t, ids.merchant, 'sample.mp3');
    const short = await addMedia(t, ids.merchant, 'short.mp3');
    const video = await addMedia(t, ids.merchant, 'consent.mp4');
    const others = await addMedia(t, ids.partner, 'sample.mp3');
    const body = { name: 'My voice', gender: 'female', audio_id: sample };
    // The public voices are synced into the table once (the first list or preview).
    const pub = await get<VoiceClonePage>('merchant', '/digital_human/voice_clone_list', {
      scope: 'public',
    });
    expect(pub.body.data.total).toBe(t.app.ctx.integrations.digitalHuman.publicVoices().length);
    const before = await fullSnapshot(t);
    const add = (extra: Record<string, unknown>) =>
      post('merchant', '/digital_human/voice_clone_add', { ...body, ...extra });
    await refused(
      await add({ audio_id: others }),
      `Material ${others} was not found or has been deleted`,
      before,
    );
    await refused(
      await add({ audio_id: video }),
      '“consent.mp4” is not audio: choose an audio material',
      before,
    );
    await refused(
      await add({ audio_id: short }),
      /^The voice sample lasts 5(\.\d+)? s: it must last 10–30 s$/,
      before,
    );
    const badGender = await add({ gender: 'other' });
    expect(badGender.body.code).not.toBe(1);
    expect(await fullSnapshot(t)).toEqual(before);

    const balance = await balances('merchant');
    const reply = await add({});
    expect(reply.body.code, reply.raw).toBe(1);
    expect(reply.body.msg).toBe('Voice clone submitted: it is being trained');
    expect(await balances('merchant')).toEqual({ ...balance, voice: balance.voice - 1 });
    const id = reply.body.data;
    const mine = await get<VoiceClonePage>('merchant', '/digital_human/voice_clone_list', {
      scope: 'mine',
    });
    expect(mine.body.data.list.map((v) => [v.id, v.scope, v.status, v.owner_name])).toEqual([
      [(id as DhAddReply).id, 'mine', 'queued', 'merchant'],
    ]);
    expect(
      (await get<VoiceClonePage>('partner', '/digital_human/voice_clone_list')).body.data.total,
    ).toBe(0);
    const admin = await get<VoiceClonePage>('admin', '/digital_human/voice_clone_list');
    expect(admin.body.data.total).toBe(1);
    const platform = await get<VoiceClonePage>('admin', '/platform/platform_voice_clone_list', {
      user_id: String(ids.merchant),
    });
    expect(platform.body.data.list.map((v) => v.owner_name)).toEqual(['merchant']);
    const none = await get<VoiceClonePage>('admin', '/platform/platform_voice_clone_list', {
      user_id: String(ids.partner),
    });
    expect(none.body.data.total).toBe(0);
    expect((await get('partner', '/platform/platform_voice_clone_list')).status).toBe(403);
    // merchant2 has one voice clone: the second is refused.
    const m2 = await addMedia(t, ids.merchant2, 'sample.mp3');
    const first = await post('merchant2', '/digital_human/voice_clone_add', {
      ...body,
      audio_id: m2,
    });
    expect(first.body.code, first.raw).toBe(1);
    const m2before = await fullSnapshot(t);
    await refused(
      await post('merchant2', '/digital_human/voice_clone_add', { ...body, audio_id: m2 }),
      'Not enough voice clones: this needs 1, the balance is 0',
      m2before,
    );
    // Deleting a queued voice is refused; another's answers like a missing one.
    const vid = (id as DhAddReply).id;
    await refused(
      await post('merchant', '/digital_human/voice_clone_delete', { ids: [vid] }),
      'Only ready or failed clones can be deleted (“My voice” is still being trained)',
      m2before,
    );
    await refused(
      await post('merchant2', '/digital_human/voice_clone_delete', { ids: [vid] }),
      'Voice not found',
      m2before,
    );
    await refused(
      await post('merchant2', '/digital_human/voice_preview', { voice_id: vid, text: 'Hello' }),
      'Voice not found',
      m2before,
    );
    await refused(
      await post('merchant', '/digital_human/voice_preview', { voice_id: vid, text: 'Hello' }),
      'The voice “My voice” is not ready yet',
      m2before,
    );
    expect(await reconcile(t.db)).toEqual([]);
  });
});
