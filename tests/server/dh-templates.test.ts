import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  DhTemplate,
  DhTemplateAddBody,
  DhTemplateAddReply,
  DhTemplateList,
} from '../../src/api/contract/dh-templates';
import type { DhAddReply } from '../../src/api/contract/digital-human';
import type { PlatformImage } from '../../src/api/contract/platform-images';
import { addWork } from '../../server/modules/resources';
import { sweepResourceFiles } from '../../server/modules/resources/sweep-files';
import type { Engine } from '../../server/platform/db/dialect';
import { api, createTestApp, engines, snapshot, type Reply, type TestApp } from './helpers';
import { dhSnapshot, fixtureApp, putThings, videoBody, type DhThings } from './dh-video-fixtures';
import { fixtureBytes } from './media-fixtures';
import { putResource } from './resource-fixtures';
import { uploadPlatformImage } from './upload-helpers';

/**
 * Video templates (docs/domain.md §10 "Video templates"), without rendering (the render:
 * dh-templates-render.test.ts): who sees and changes which; the files a template holds; every
 * refusal changes nothing; a template made from a done video; a video keeps the settings its
 * template had at submit, whatever happens to the template afterwards.
 */
const EN = { lang: 'en-US' };
const ZH = { lang: 'zh-CN' };

const LAYOUT = {
  avatar: { x: 0.6, y: 0.05, width: 0.35, height: 0.95 },
  subtitle: { y: 0.85, size: 0.05, color: '#FFEE00' },
  background: '#102030',
};

describe.each(engines)('video templates on %s', (engine: Engine) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let merchantId: number;

  beforeEach(async () => {
    t = await createTestApp(engine);
    merchantId = (await t.user('merchant')).id;
    for (const user of ['admin', 'partner', 'merchant', 'merchant2', 'agent']) {
      tokens[user] = await t.login(user);
    }
  });
  afterEach(async () => {
    await t.close();
  });

  const post = <T>(who: string, url: string, body: unknown, headers = EN) =>
    t.call<T>('POST', api(url), { token: tokens[who], body, headers });
  const list = async (who: string, query: Record<string, string> = {}, headers = EN) => {
    const reply = await t.call<DhTemplateList>('GET', api('/digital_human/template_list'), {
      token: tokens[who],
      query,
      headers,
    });
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.list;
  };
  const byId = async (who: string, id: number) => (await list(who)).find((x) => x.id === id);
  async function added(who: string, body: DhTemplateAddBody): Promise<number> {
    const reply = await post<DhTemplateAddReply>(who, '/digital_human/template_add', body);
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.id;
  }
  /** `count` templates of the merchant's own, written straight to the table. */
  async function ownTemplates(count: number) {
    const now = t.clock();
    await t.db
      .insertInto('dh_templates')
      .values(
        Array.from({ length: count }, (_, i) => ({
          key: null,
          owner_id: merchantId,
          name: `T${i}`,
          ratio: '9:16',
          width: 720,
          height: 1280,
          layout: JSON.stringify(LAYOUT),
          cover_key: null,
          background_resource_id: null,
          background_url: null,
          cover_resource_id: null,
          cover_url: null,
          demo_resource_id: null,
          music_resource_id: null,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })),
      )
      .execute();
  }
  /** Every table a refused call must leave as it was (audit rows of refusals aside). */
  const everything = async () => ({
    ...(await snapshot(t.db)),
    ...(await dhSnapshot(t.db)),
    dh_templates: (await t.db.selectFrom('dh_templates').selectAll().execute())
      .map((r) => JSON.stringify(r))
      .sort(),
    resources: (await t.db.selectFrom('resources').selectAll().execute())
      .map((r) => JSON.stringify(r))
      .sort(),
  });
  async function expectRefused(reply: Promise<Reply>, msg: string | RegExp, status = 200) {
    const before = await everything();
    const r = await reply;
    expect(r.status, r.raw).toBe(status);
    expect(r.body.code, r.raw).not.toBe(1);
    if (typeof msg === 'string') expect(r.body.msg).toBe(msg);
    else expect(r.body.msg).toMatch(msg);
    expect(await everything()).toEqual(before);
  }
  const refs = (templateId: number) =>
    t.db
      .selectFrom('resource_refs')
      .select('resource_id')
      .where('task_kind', '=', 'dh_template')
      .where('task_id', '=', templateId)
      .orderBy('resource_id')
      .execute()
      .then((rows) => rows.map((r) => Number(r.resource_id)));
  /** The merchant's library: two pictures, a video and background music. */
  async function library(owner = merchantId) {
    return {
      picture: (await putResource(t, owner, { type: 'image', name: 'beach.png' })).id,
      picture2: (await putResource(t, owner, { type: 'image', name: 'city.png' })).id,
      demo: (await putResource(t, owner, { type: 'video', name: 'demo.mp4' })).id,
      music: (await putResource(t, owner, { type: 'bgm', name: 'calm.mp3' })).id,
    };
  }
  async function platformImage(): Promise<string> {
    const reply = await uploadPlatformImage(
      t,
      tokens.admin,
      'content',
      'sky.png',
      await fixtureBytes('photo.png'),
    );
    expect(reply.body.code, reply.raw).toBe(1);
    return (reply.body.data as PlatformImage).url;
  }

  it('shows the platform’s templates to the admin, partners and merchants, and one’s own to its owner only; filters by scope and ratio', async () => {
    const builtin = ['Portrait 9:16', 'Landscape 16:9', 'Square 1:1', 'Classic 4:3'];
    const admin = await list('admin');
    expect(admin.map((x) => [x.name, x.scope, x.builtin, x.editable])).toEqual(
      builtin.map((name) => [name, 'platform', true, true]),
    );
    // The default (portrait) is the one a video without a template gets.
    expect(admin.map((x) => x.default)).toEqual([true, false, false, false]);
    const lib = await library();
    const own = await added('merchant', {
      name: 'My studio',
      ratio: '16:9',
      layout: LAYOUT,
      background_image_id: lib.picture,
      music_id: lib.music,
    });
    const merchant = await list('merchant');
    expect(merchant.map((x) => [x.name, x.scope, x.editable])).toEqual([
      ...builtin.map((name) => [name, 'platform', false]),
      ['My studio', 'mine', true],
    ]);
    for (const other of ['merchant2', 'partner', 'admin']) {
      expect(
        (await list(other)).map((x) => x.id),
        other,
      ).not.toContain(own);
    }
    expect((await list('merchant', { scope: 'mine' })).map((x) => x.id)).toEqual([own]);
    expect((await list('merchant', { scope: 'platform' })).map((x) => x.name)).toEqual(builtin);
    expect((await list('merchant', { ratio: '16:9' })).map((x) => x.name)).toEqual([
      'Landscape 16:9',
      'My studio',
    ]);
    expect((await list('merchant', { scope: 'mine', ratio: '9:16' })).length).toBe(0);
    const zh = await list('merchant', {}, ZH);
    expect(zh.map((x) => x.name)).toEqual([
      '竖屏 9:16',
      '横屏 16:9',
      '方形 1:1',
      '经典 4:3',
      'My studio',
    ]);
    const agent = await t.call('GET', api('/digital_human/template_list'), {
      token: tokens.agent,
      headers: EN,
    });
    expect(agent.status).toBe(403);
  });

  it('a merchant adds, edits and deletes a template of its own with files of its library, which the template holds', async () => {
    const lib = await library();
    const id = await added('merchant', {
      name: '  Beach promo  ',
      ratio: '9:16',
      layout: LAYOUT,
      background_image_id: lib.picture,
      cover_id: lib.picture2,
      demo_id: lib.demo,
      music_id: lib.music,
    });
    const made = (await byId('merchant', id))!;
    expect(made).toMatchObject({
      name: 'Beach promo',
      scope: 'mine',
      builtin: false,
      editable: true,
      ratio: '9:16',
      width: 720,
      height: 1280,
      layout: LAYOUT,
      background_image: { resource_id: lib.picture, image_url: null, name: 'beach.png' },
      cover_image: { resource_id: lib.picture2, name: 'city.png' },
      demo: { resource_id: lib.demo, name: 'demo.mp4' },
      music: { resource_id: lib.music, name: 'calm.mp3', poster: null },
    });
    // Signed URLs to show and play them; the cover is the cover picture's.
    expect(made.background_image?.url).toMatch(/^\/api\/v1\/files\//);
    expect(made.demo?.poster).toMatch(/^\/api\/v1\/files\//);
    expect(made.cover).toBe(made.cover_image?.url);
    expect(await refs(id)).toEqual([lib.picture, lib.picture2, lib.demo, lib.music].sort());

    // Edit: no name keeps it; the cover goes (the demo's poster is the cover then).
    const edit = await post('merchant', '/digital_human/template_edit', {
      id,
      ratio: '1:1',
      layout: { ...LAYOUT, background: '#000000' },
      background_image_id: lib.picture2,
      demo_id: lib.demo,
    });
    expect(edit.body.code, edit.raw).toBe(1);
    const edited = (await byId('merchant', id))!;
    expect(edited).toMatchObject({
      name: 'Beach promo',
      ratio: '1:1',
      width: 720,
      height: 720,
      cover_image: null,
      music: null,
      background_image: { resource_id: lib.picture2 },
    });
    expect(edited.cover).toBe(edited.demo?.poster);
    expect(await refs(id)).toEqual([lib.picture2, lib.demo].sort());

    // A file deleted from the library stays while the template holds it (and may stay in it).
    const gone = await post('merchant', '/resource/delete', { ids: [lib.picture2] });
    expect(gone.body.code, gone.raw).toBe(1);
    await sweepResourceFiles(t.app.ctx);
    const kept = await t.db
      .selectFrom('resources')
      .select('file_deleted_at')
      .where('id', '=', lib.picture2)
      .executeTakeFirstOrThrow();
    expect(kept.file_deleted_at).toBeNull();
    const again = await post('merchant', '/digital_human/template_edit', {
      id,
      name: 'Beach promo 2',
      ratio: '1:1',
      layout: LAYOUT,
      background_image_id: lib.picture2,
    });
    expect(again.body.code, again.raw).toBe(1);
    expect((await byId('merchant', id))?.name).toBe('Beach promo 2');

    const deleted = await post<{ count: number }>('merchant', '/digital_human/template_delete', {
      ids: [id],
    });
    expect(deleted.body).toMatchObject({ code: 1, data: { count: 1 } });
    expect(await byId('merchant', id)).toBeUndefined();
    expect(await refs(id)).toEqual([]);
    // No longer held: the deleted picture's file goes at the next sweep.
    await sweepResourceFiles(t.app.ctx);
    const swept = await t.db
      .selectFrom('resources')
      .select('file_deleted_at')
      .where('id', '=', lib.picture2)
      .executeTakeFirstOrThrow();
    expect(swept.file_deleted_at).not.toBeNull();
    const audits = await t.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', 'like', 'dh_template.%')
      .where('result', '=', 'ok')
      .orderBy('id')
      .execute();
    expect(audits.map((a) => [a.action, Number(a.target_id)])).toEqual([
      ['dh_template.add', id],
      ['dh_template.edit', id],
      ['dh_template.edit', id],
      ['dh_template.delete', id],
    ]);
  });

  it('the admin adds and edits the platform’s templates with platform images; built-in names stay translated unless renamed', async () => {
    const image = await platformImage();
    const id = await added('admin', {
      name: 'Sky stage',
      ratio: '4:3',
      layout: LAYOUT,
      background_image_url: image,
      cover_url: image,
    });
    const seen = (await byId('merchant', id))!;
    expect(seen).toMatchObject({
      name: 'Sky stage',
      scope: 'platform',
      editable: false,
      width: 960,
      height: 720,
      background_image: { resource_id: null, image_url: image, url: image, name: 'sky.png' },
      cover: image,
    });
    // After the built-in ones.
    expect((await list('merchant')).map((x) => x.id).indexOf(id)).toBe(4);
    const landscape = (await list('admin')).find((x) => x.name === 'Landscape 16:9')!;
    const keep = await post('admin', '/digital_human/template_edit', {
      id: landscape.id,
      ratio: '16:9',
      layout: { ...landscape.layout, subtitle: { y: 0.5, size: 0.08, color: '#00FF00' } },
    });
    expect(keep.body.code, keep.raw).toBe(1);
    expect((await byId('merchant', landscape.id))?.layout.subtitle.color).toBe('#00FF00');
    expect((await list('merchant', {}, ZH)).find((x) => x.id === landscape.id)?.name).toBe(
      '横屏 16:9',
    );
    const renamed = await post('admin', '/digital_human/template_edit', {
      id: landscape.id,
      name: 'Wide',
      ratio: '16:9',
      layout: landscape.layout,
    });
    expect(renamed.body.code, renamed.raw).toBe(1);
    expect((await list('merchant', {}, ZH)).find((x) => x.id === landscape.id)?.name).toBe('Wide');
    const removed = await post('admin', '/digital_human/template_delete', { ids: [id] });
    expect(removed.body.code, removed.raw).toBe(1);
    expect(await byId('merchant', id)).toBeUndefined();
  });

  it('refuses bad input and what is not the caller’s, in the caller’s language, changing nothing', async () => {
    const lib = await library();
    const other = await library((await t.user('merchant2')).id);
    const image = await platformImage();
    const own = await added('merchant', { name: 'Mine', ratio: '9:16', layout: LAYOUT });
    const theirs = await added('merchant2', { name: 'Theirs', ratio: '9:16', layout: LAYOUT });
    const portrait = (await list('admin')).find((x) => x.name === 'Portrait 9:16')!;
    const body = { name: 'Bad', ratio: '9:16', layout: LAYOUT };
    const add = (who: string, extra: Record<string, unknown>, headers = EN) =>
      post(who, '/digital_human/template_add', { ...body, ...extra }, headers);
    const layout = (patch: Record<string, unknown>) => ({ layout: { ...LAYOUT, ...patch } });

    await expectRefused(add('merchant', { name: '   ' }), 'Template name: 1 to 30 characters');
    await expectRefused(add('merchant', { name: 'x'.repeat(31) }), /Template name/);
    await expectRefused(add('merchant', { ratio: '3:2' }), 'Choose an aspect ratio');
    await expectRefused(
      add('merchant', layout({ avatar: { x: 0.7, y: 0, width: 0.4, height: 1 } })),
      /presenter’s rectangle lies inside the frame/,
    );
    await expectRefused(
      add('merchant', layout({ avatar: { x: 0, y: 0, width: 0.05, height: 1 } })),
      /presenter’s rectangle/,
    );
    await expectRefused(
      add('merchant', layout({ subtitle: { y: 1.2, size: 0.05, color: '#FFFFFF' } })),
      /Subtitle position/,
    );
    await expectRefused(
      add('merchant', layout({ subtitle: { y: 0.8, size: 0.5, color: '#FFFFFF' } })),
      /Subtitle size/,
    );
    await expectRefused(add('merchant', layout({ background: 'red' })), /Colour/);
    await expectRefused(add('merchant', { cover_id: 'x' }), /invalid|Invalid/);
    await expectRefused(add('merchant', { extra: 1 }), /.+/);
    // Files: another's, of the wrong type, a missing one, past int4; images for the admin only.
    await expectRefused(
      add('merchant', { background_image_id: other.picture }),
      `Picture ${other.picture} was not found: choose an image of your library`,
    );
    await expectRefused(add('merchant', { cover_id: lib.music }), /Picture .* was not found/);
    await expectRefused(
      add('merchant', { demo_id: lib.picture }),
      `Video ${lib.picture} was not found: choose a video of your library`,
    );
    await expectRefused(add('merchant', { music_id: lib.demo }), /Music .* was not found/);
    await expectRefused(add('merchant', { music_id: 2 ** 40 }), /Music .* was not found/);
    const binned = await post('merchant', '/resource/delete', { ids: [lib.picture2] });
    expect(binned.body.code, binned.raw).toBe(1);
    await expectRefused(add('merchant', { cover_id: lib.picture2 }), /Picture .* was not found/);
    await expectRefused(
      add('merchant', { background_image_url: image }),
      'Your templates take files of your library only',
    );
    await expectRefused(
      add('admin', { background_image_id: lib.picture }),
      /platform’s templates take uploaded platform images only/,
    );
    await expectRefused(
      add('admin', { cover_url: '/api/v1/images/0123456789abcdef0123456789abcdef.png' }),
      /The image was not found/,
    );
    await expectRefused(add('admin', { cover_url: 'https://evil.test/x.png' }), /Upload a PNG/);
    await expectRefused(
      add('merchant', { background_image_id: other.picture }, ZH),
      `图片 ${other.picture} 不存在：请选择素材库中的图片`,
    );
    // Whose: another's template is missing; the platform's refuse partners and merchants (403).
    const edit = (who: string, id: number) =>
      post(who, '/digital_human/template_edit', { id, ...body });
    await expectRefused(edit('merchant', theirs), 'Template not found');
    await expectRefused(edit('admin', own), 'Template not found');
    await expectRefused(edit('merchant', 999_999), 'Template not found');
    await expectRefused(edit('merchant', 2 ** 40), 'Template not found');
    await expectRefused(
      edit('partner', portrait.id),
      'Only the platform’s administrator changes the platform’s templates',
      403,
    );
    await expectRefused(
      post('merchant', '/digital_human/template_delete', { ids: [own, theirs] }),
      'Template not found',
    );
    await expectRefused(
      post('merchant', '/digital_human/template_delete', { ids: [portrait.id] }),
      /administrator/,
      403,
    );
    await expectRefused(
      post('admin', '/digital_human/template_delete', { ids: [portrait.id] }),
      'The default template “Portrait 9:16” cannot be deleted',
    );
    await expectRefused(
      post('merchant', '/digital_human/template_delete', { ids: [] }),
      /invalid|Invalid/,
    );
    // A video may not use another's template.
    const things = await putThings(fixtureApp(t), merchantId);
    await expectRefused(
      post('merchant', '/digital_human/video_add', videoBody(things, { template_id: theirs })),
      `Template ${theirs} was not found`,
    );
    // At most 50 of one's own.
    await ownTemplates(49);
    await expectRefused(add('merchant', {}), 'At most 50 templates of your own: delete one first');
  });

  it('at most 50 of one’s own even when adds come at once', async () => {
    await ownTemplates(46);
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post('merchant', '/digital_human/template_add', {
          name: `Race ${i}`,
          ratio: '9:16',
          layout: LAYOUT,
        }),
      ),
    );
    expect(replies.filter((r) => r.body.code === 1)).toHaveLength(4);
    expect(replies.filter((r) => r.body.code !== 1).map((r) => r.body.msg)).toEqual(
      Array(4).fill('At most 50 templates of your own: delete one first'),
    );
    const own = await t.db
      .selectFrom('dh_templates')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', merchantId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(own.n)).toBe(50);
  });

  it('makes a template of a done video: its frame, layout, background and music; its output is the demo and its poster the cover', async () => {
    const lib = await library();
    const source = await added('merchant', {
      name: 'Studio',
      ratio: '16:9',
      layout: LAYOUT,
      background_image_id: lib.picture,
      music_id: lib.music,
    });
    const things: DhThings = await putThings(fixtureApp(t), merchantId);
    const video = await post<DhAddReply>(
      'merchant',
      '/digital_human/video_add',
      videoBody(things, { template_id: source }),
    );
    expect(video.body.code, video.raw).toBe(1);
    const videoId = video.body.data.id;
    const fromVideo = (who: string, id = videoId, name = 'From my video') =>
      post<DhTemplateAddReply>(who, '/digital_human/template_from_video', { video_id: id, name });
    await expectRefused(
      fromVideo('merchant'),
      'Only a finished video can become a template (“数字人_20261126 0600” is not done)',
    );
    // The source template changes after the video was submitted: the video kept its settings.
    const changed = await post('merchant', '/digital_human/template_edit', {
      id: source,
      ratio: '9:16',
      layout: { ...LAYOUT, background: '#FFFFFF' },
    });
    expect(changed.body.code, changed.raw).toBe(1);
    // Finished (as the job finishes it: done, its output in the library as a work).
    const out = await putResource(t, merchantId, { type: 'video' });
    await t.db
      .updateTable('dh_videos')
      .set({
        status: 'done',
        storage_key: out.storageKey,
        poster_key: out.posterKey,
        duration_ms: 2000,
      })
      .where('id', '=', videoId)
      .execute();
    await addWork(t.db, {
      ownerId: merchantId,
      source: 'dh_video',
      sourceId: videoId,
      ref: { kind: 'dh_video', id: videoId },
      name: 'out',
      storageKey: out.storageKey,
      posterKey: out.posterKey,
      size: 64,
      durationMs: 2000,
      width: 1280,
      height: 720,
      now: t.clock(),
    });
    const work = await t.db
      .selectFrom('resources')
      .select('id')
      .where('source_kind', '=', 'dh_video')
      .where('source_id', '=', videoId)
      .executeTakeFirstOrThrow();
    for (const who of ['merchant2', 'partner']) {
      await expectRefused(fromVideo(who), 'Video not found');
    }
    await expectRefused(fromVideo('merchant', videoId, ''), /Template name/);
    const reply = await fromVideo('merchant');
    expect(reply.body.code, reply.raw).toBe(1);
    const made: DhTemplate = (await byId('merchant', reply.body.data.id))!;
    expect(made).toMatchObject({
      name: 'From my video',
      scope: 'mine',
      ratio: '16:9',
      width: 1280,
      height: 720,
      layout: LAYOUT,
      background_image: { resource_id: lib.picture },
      music: { resource_id: lib.music },
      demo: { resource_id: Number(work.id) },
      cover_image: null,
    });
    expect(made.cover).toBe(made.demo?.poster);
    expect(made.cover).not.toBeNull();
    expect(await refs(made.id)).toEqual([lib.picture, lib.music, Number(work.id)].sort());
    // The admin has no videos.
    const admin = await post('admin', '/digital_human/template_from_video', {
      video_id: videoId,
      name: 'x',
    });
    expect(admin.status).toBe(403);
  });

  it('a video keeps the settings its template had at submit: editing or deleting the template, or deleting its files from the library, changes nothing of it', async () => {
    const lib = await library();
    const id = await added('merchant', {
      name: 'Studio',
      ratio: '16:9',
      layout: LAYOUT,
      background_image_id: lib.picture,
      music_id: lib.music,
    });
    const things = await putThings(fixtureApp(t), merchantId);
    const video = await post<DhAddReply>(
      'merchant',
      '/digital_human/video_add',
      videoBody(things, { template_id: id }),
    );
    expect(video.body.code, video.raw).toBe(1);
    const kept = async () =>
      (
        await t.db
          .selectFrom('dh_videos')
          .select('template_settings')
          .where('id', '=', video.body.data.id)
          .executeTakeFirstOrThrow()
      ).template_settings;
    const before = await kept();
    expect(JSON.parse(before!)).toEqual({
      template_id: id,
      ratio: '16:9',
      width: 1280,
      height: 720,
      layout: LAYOUT,
      background: { resource_id: lib.picture },
      music_resource_id: lib.music,
    });
    const edited = await post('merchant', '/digital_human/template_edit', {
      id,
      ratio: '1:1',
      layout: { ...LAYOUT, background: '#FFFFFF' },
    });
    expect(edited.body.code, edited.raw).toBe(1);
    const deleted = await post('merchant', '/digital_human/template_delete', { ids: [id] });
    expect(deleted.body.code, deleted.raw).toBe(1);
    const files = await post('merchant', '/resource/delete', { ids: [lib.picture, lib.music] });
    expect(files.body.code, files.raw).toBe(1);
    await sweepResourceFiles(t.app.ctx);
    expect(await kept()).toBe(before);
    // The video holds the files it will render with.
    const held = await t.db
      .selectFrom('resources')
      .select(['id', 'file_deleted_at'])
      .where('id', 'in', [lib.picture, lib.music])
      .execute();
    expect(held.map((r) => r.file_deleted_at)).toEqual([null, null]);
    // A new video may not use the deleted template.
    await expectRefused(
      post('merchant', '/digital_human/video_add', videoBody(things, { template_id: id })),
      `Template ${id} was not found`,
    );
  });
});
