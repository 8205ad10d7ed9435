import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  GroupListReply,
  Resource,
  ResourceGroup,
  ResourcePage,
} from '../../src/api/contract/resources';
import { MAX_KEYS } from '../../server/platform/db/list-cache';
import { sweepResourceFiles } from '../../server/modules/resources/sweep-files';
import { api, createTestApp, engines, MINUTE, type Reply, type TestApp } from './helpers';
import { makeMedia, putResource, putUpload } from './resource-fixtures';
import { uploadBytes } from './upload-helpers';

const MEDIA = await makeMedia();

const EN = { lang: 'en-US' };
const NAMES = ['admin', 'partner', 'partner2', 'agent', 'merchant', 'merchant2'] as const;
type Name = (typeof NAMES)[number];

describe.each(engines)('resource library on %s', (engine) => {
  let t: TestApp;
  let ids: Record<Name, number>;
  let tokens: Record<Name, string>;

  beforeEach(async () => {
    t = await createTestApp(engine);
    ids = {} as Record<Name, number>;
    tokens = {} as Record<Name, string>;
    for (const name of NAMES) {
      ids[name] = (await t.user(name)).id;
      tokens[name] = await t.login(name);
    }
  });
  afterEach(async () => {
    await t.close();
  });

  function post<T = unknown>(
    who: Name,
    path: string,
    body: unknown,
    headers: Record<string, string> = EN,
  ): Promise<Reply<T>> {
    return t.call<T>('POST', api(`/resource${path}`), { token: tokens[who], body, headers });
  }
  function get<T = unknown>(
    who: Name,
    path: string,
    query: Record<string, string> = {},
  ): Promise<Reply<T>> {
    return t.call<T>('GET', api(`/resource${path}`), { token: tokens[who], query, headers: EN });
  }
  async function list(who: Name, query: Record<string, string> = {}): Promise<ResourcePage> {
    const reply = await get<ResourcePage>(who, '/list', query);
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  }
  const namesOf = (page: ResourcePage) => page.list.map((r) => r.name);
  async function addGroup(who: Name, name: string): Promise<number> {
    const reply = await post<ResourceGroup>(who, '/group_add', { name });
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.id;
  }
  /** Resources one minute apart, so "newest first" is also the order of their times. */
  async function putMany(who: Name, specs: Parameters<typeof putResource>[2][]) {
    const out = [];
    for (const spec of specs) {
      out.push(await putResource(t, ids[who], spec));
      t.clock.advance(MINUTE);
    }
    return out;
  }

  it('lists the caller’s resources newest first, with signed URLs that read the file and poster', async () => {
    const [video, audio] = await putMany('merchant', [
      { type: 'video', name: 'Clip one', durationMs: 12_345 },
      { type: 'audio', name: 'Song' },
    ]);
    const page = await list('merchant');
    expect(page.total).toBe(2);
    expect(namesOf(page)).toEqual(['Song', 'Clip one']);
    const [song, clip] = page.list as [Resource, Resource];
    expect(clip).toMatchObject({
      id: video.id,
      type: 'video',
      group_id: null,
      content_type: 'video/mp4',
      size: 64,
      duration: 12.35,
      width: 1280,
      height: 720,
      codec: 'h264',
    });
    expect(song.cover).toBeNull();
    expect(song.id).toBe(audio.id);
    expect(clip.url).not.toContain(tokens.merchant);
    const file = await t.app.inject({ method: 'GET', url: clip.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(video.bytes)).toBe(true);
    expect(file.headers['content-type']).toBe('video/mp4');
    const poster = await t.call('GET', clip.cover!);
    expect(poster.status).toBe(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
  });

  it('hands out the same signed URLs while they have half their hour to live, then new ones', async () => {
    await putResource(t, ids.merchant, { type: 'video', name: 'v' });
    const urls = async () => {
      const [r] = (await list('merchant')).list;
      return [r.url, r.cover!];
    };
    const first = await urls();
    t.clock.advance(29 * MINUTE);
    expect(await urls()).toEqual(first);
    t.clock.advance(2 * MINUTE);
    const fresh = await urls();
    expect(fresh[0]).not.toBe(first[0]);
    expect(fresh[1]).not.toBe(first[1]);
    const exp = (url: string) => Number(new URL(url, 'http://x').searchParams.get('exp')) * 1000;
    expect(exp(fresh[0]) - t.clock()).toBeGreaterThanOrEqual(59 * MINUTE);
    for (const url of [...first, ...fresh]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    t.clock.advance(30 * MINUTE);
    expect((await t.app.inject({ method: 'GET', url: first[0] })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: fresh[0] })).statusCode).toBe(200);
  });

  it('filters by type, group, ungrouped and keyword (% and _ literal, any case)', async () => {
    const g1 = await addGroup('merchant', 'Trips');
    const g2 = await addGroup('merchant', 'Food');
    await putMany('merchant', [
      { type: 'video', name: 'Beach day', groupId: g1 },
      { type: 'image', name: 'Beach photo', groupId: g1 },
      { type: 'image', name: 'Noodles 100%', groupId: g2 },
      { type: 'audio', name: 'noodle_song' },
      { type: 'bgm', name: 'Noodlexsong' },
      { type: 'video', name: 'Street 10' },
    ]);
    expect(namesOf(await list('merchant', { type: 'image' }))).toEqual([
      'Noodles 100%',
      'Beach photo',
    ]);
    expect(namesOf(await list('merchant', { group_id: String(g1) }))).toEqual([
      'Beach photo',
      'Beach day',
    ]);
    expect(namesOf(await list('merchant', { group_id: '0' }))).toEqual([
      'Street 10',
      'Noodlexsong',
      'noodle_song',
    ]);
    expect(namesOf(await list('merchant', { group_id: String(g1), type: 'video' }))).toEqual([
      'Beach day',
    ]);
    expect(namesOf(await list('merchant', { keyword: 'BEACH' }))).toEqual([
      'Beach photo',
      'Beach day',
    ]);
    expect(namesOf(await list('merchant', { keyword: '0%' }))).toEqual(['Noodles 100%']);
    expect(namesOf(await list('merchant', { keyword: '%' }))).toEqual(['Noodles 100%']);
    expect(namesOf(await list('merchant', { keyword: 'e_s' }))).toEqual(['noodle_song']);
    expect(namesOf(await list('merchant', { keyword: '_' }))).toEqual(['noodle_song']);
    // Several types (what a form's place takes: the picker's "all these types"), comma-separated
    // or as repeated keys; with `type` too, that one.
    expect(namesOf(await list('merchant', { types: 'audio,bgm' }))).toEqual([
      'Noodlexsong',
      'noodle_song',
    ]);
    expect(namesOf(await list('merchant', { types: 'image,video', group_id: String(g1) }))).toEqual(
      ['Beach photo', 'Beach day'],
    );
    expect(namesOf(await list('merchant', { types: 'image,video', type: 'video' }))).toEqual([
      'Street 10',
      'Beach day',
    ]);
    const repeated = await t.call<ResourcePage>(
      'GET',
      api('/resource/list?types=bgm&types=image&keyword=noodle'),
      { token: tokens.merchant, headers: EN },
    );
    expect(namesOf(repeated.body.data)).toEqual(['Noodlexsong', 'Noodles 100%']);
    for (const types of ['image,nope', ',', 'image,,video']) {
      const refused = await get('merchant', '/list', { types });
      expect(refused.body, types).toMatchObject({ code: 0, msg: 'Choose a resource type' });
    }
    // Empty values are "no filter" (a cleared filter field).
    expect((await list('merchant', { type: '', group_id: '', keyword: '' })).total).toBe(6);
    // A group id no group has (also past PostgreSQL's integer range) lists nothing.
    expect(await list('merchant', { group_id: '999999' })).toEqual({ list: [], total: 0 });
    expect(await list('merchant', { group_id: '99999999999999' })).toEqual({ list: [], total: 0 });
  });

  it('pages: limit, page, total; a page past the end is empty', async () => {
    await putMany(
      'merchant',
      Array.from({ length: 25 }, (_, i) => ({ type: 'image' as const, name: `img ${i}` })),
    );
    const first = await list('merchant', { limit: '10' });
    expect(first.total).toBe(25);
    expect(namesOf(first)).toEqual(Array.from({ length: 10 }, (_, i) => `img ${24 - i}`));
    const third = await list('merchant', { limit: '10', page: '3' });
    expect(namesOf(third)).toEqual(['img 4', 'img 3', 'img 2', 'img 1', 'img 0']);
    expect(await list('merchant', { limit: '10', page: '4' })).toEqual({ list: [], total: 25 });
    // A deep page through the cached anchors (every 20 rows): the same rows as plain offsets.
    const deep = await list('merchant', { limit: '3', page: '8' });
    expect(namesOf(deep)).toEqual(['img 3', 'img 2', 'img 1']);
    expect((await list('merchant')).list).toHaveLength(20);
  });

  it('keyword pages (from cached keys) follow new, renamed, moved and deleted resources at once', async () => {
    const made = await putMany(
      'merchant',
      Array.from({ length: 30 }, (_, i) => ({ name: i % 3 === 0 ? `trip ${i}` : `other ${i}` })),
    );
    const trips = () => list('merchant', { keyword: 'trip', limit: '4' });
    const expected = (names: string[]) => ({ total: names.length, first: names.slice(0, 4) });
    const seen = async () => {
      const page = await trips();
      return { total: page.total, first: namesOf(page) };
    };
    let names = made
      .map((_, i) => i)
      .filter((i) => i % 3 === 0)
      .reverse()
      .map((i) => `trip ${i}`);
    expect(await seen()).toEqual(expected(names));
    expect(namesOf(await list('merchant', { keyword: 'trip', limit: '4', page: '3' }))).toEqual(
      names.slice(8, 12),
    );
    await putResource(t, ids.merchant, { name: 'new trip' });
    names = ['new trip', ...names];
    expect(await seen()).toEqual(expected(names));
    await post('merchant', '/edit', { id: made[1].id, name: 'trip renamed' });
    expect((await seen()).total).toBe(names.length + 1);
    await post('merchant', '/edit', { id: made[1].id, name: 'plain again' });
    expect(await seen()).toEqual(expected(names));
    await post('merchant', '/delete', { ids: [made[27].id] });
    names = names.filter((n) => n !== 'trip 27');
    expect(await seen()).toEqual(expected(names));
    const group = await addGroup('merchant', 'G');
    await post('merchant', '/edit', { id: made[24].id, group_id: group });
    expect(namesOf(await list('merchant', { keyword: 'trip', group_id: String(group) }))).toEqual([
      'trip 24',
    ]);
    // Written straight to the database, not through the app: seen too.
    await t.db
      .updateTable('resources')
      .set({ name: 'trip direct' })
      .where('id', '=', made[2].id)
      .execute();
    expect((await seen()).total).toBe(names.length + 1);
  });

  it('a keyword matching more names than the cache keeps pages as any list', async () => {
    const now = t.clock();
    const rows = Array.from({ length: MAX_KEYS + 5 }, (_, i) => ({
      owner_id: ids.merchant,
      group_id: null,
      type: 'image',
      name: `many ${i}`,
      upload_id: 1_000_000 + i,
      storage_key: `uploads/202603/${String(i).padStart(32, '0')}`,
      poster_key: null,
      content_type: 'image/png',
      size: 1,
      duration_ms: null,
      width: null,
      height: null,
      codec: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      file_deleted_at: null,
    }));
    for (let i = 0; i < rows.length; i += 400) {
      await t.db
        .insertInto('resources')
        .values(rows.slice(i, i + 400))
        .execute();
    }
    const first = await list('merchant', { keyword: 'many', limit: '5' });
    expect(first.total).toBe(MAX_KEYS + 5);
    expect(namesOf(first)).toEqual([4, 3, 2, 1, 0].map((i) => `many ${MAX_KEYS + i}`));
    const deep = await list('merchant', { keyword: 'many', limit: '5', page: '401' });
    expect(namesOf(deep)).toEqual([4, 3, 2, 1, 0].map((i) => `many ${i}`));
  });

  it('add: a checked MP4 and PNG become resources; the list shows them, their URLs read the files', async () => {
    const group = await addGroup('merchant', 'Clips');
    const video = await putUpload(t, ids.merchant, {
      type: 'video',
      name: 'clip.mp4',
      bytes: MEDIA.mp4,
    });
    const image = await putUpload(t, ids.merchant, {
      type: 'image',
      name: 'pic.png',
      bytes: MEDIA.png,
    });
    const added = await post<Resource>('merchant', '/add', {
      upload_key: video.uploadKey,
      name: ' My clip ',
      group_id: group,
    });
    expect(added.body.msg, added.raw).toBe('Resource added');
    expect(added.body.data).toMatchObject({
      type: 'video',
      name: 'My clip',
      group_id: group,
      content_type: 'video/mp4',
      size: MEDIA.mp4.length,
      width: 320,
      height: 240,
      codec: 'h264',
    });
    expect(added.body.data.duration).toBeCloseTo(1, 0);
    t.clock.advance(MINUTE);
    const pic = await post<Resource>('merchant', '/add', {
      upload_key: image.uploadKey,
      name: 'Pic',
    });
    expect(pic.body.data).toMatchObject({ type: 'image', width: 64, height: 48, duration: null });
    const page = await list('merchant');
    expect(namesOf(page)).toEqual(['Pic', 'My clip']);
    const clip = page.list[1];
    const file = await t.app.inject({ method: 'GET', url: clip.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(MEDIA.mp4)).toBe(true);
    const poster = await t.app.inject({ method: 'GET', url: clip.cover! });
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toMatch(/^image\//);
    const upload = await t.db
      .selectFrom('uploads')
      .select('state')
      .where('upload_key', '=', video.uploadKey)
      .executeTakeFirstOrThrow();
    expect(upload.state).toBe('used');
  });

  it('add through the real upload calls: oss_upload an MP4, tus a PNG, then add; the list reads them', async () => {
    const boundary = '----vc-resource-test';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nvideo\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="trip.mp4"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      MEDIA.mp4,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const form = await t.app.inject({
      method: 'POST',
      url: api('/upload/oss_upload'),
      headers: {
        token: tokens.merchant,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...EN,
      },
      payload,
    });
    const formed = form.json() as { code: number; data: { upload_key: string; size: number } };
    expect(formed.code, form.body).toBe(1);
    expect(formed.data.size).toBe(MEDIA.mp4.length);
    const pngKey = await uploadBytes(t, tokens.merchant, 'image', 'photo.png', MEDIA.png);
    const video = await post<Resource>('merchant', '/add', {
      upload_key: formed.data.upload_key,
      name: 'Trip',
    });
    expect(video.body.code, video.raw).toBe(1);
    t.clock.advance(MINUTE);
    const photo = await post<Resource>('merchant', '/add', { upload_key: pngKey, name: 'Photo' });
    expect(photo.body.code, photo.raw).toBe(1);
    const twice = await post('merchant', '/add', { upload_key: pngKey, name: 'Photo again' });
    expect(twice.body.msg).toBe('Unknown upload');
    const page = await list('merchant');
    expect(namesOf(page)).toEqual(['Photo', 'Trip']);
    for (const [resource, bytes] of [
      [page.list[0], MEDIA.png],
      [page.list[1], MEDIA.mp4],
    ] as const) {
      const file = await t.app.inject({ method: 'GET', url: resource.url });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(bytes)).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: resource.cover! })).statusCode).toBe(200);
    }
    expect(page.list[1]).toMatchObject({ type: 'video', width: 320, height: 240, codec: 'h264' });
  });

  it('add: the same upload twice, one after the other or at once, makes one resource', async () => {
    const first = await putUpload(t, ids.merchant, {
      type: 'image',
      name: 'a.png',
      bytes: MEDIA.png,
    });
    expect(
      (await post('merchant', '/add', { upload_key: first.uploadKey, name: 'a' })).body.code,
    ).toBe(1);
    const again = await post('merchant', '/add', { upload_key: first.uploadKey, name: 'a' });
    expect(again.body).toEqual({ code: 0, msg: 'Unknown upload', data: null });
    const second = await putUpload(t, ids.merchant, {
      type: 'video',
      name: 'b.mp4',
      bytes: MEDIA.mp4,
    });
    const both = await Promise.all(
      [1, 2].map(() => post('merchant', '/add', { upload_key: second.uploadKey, name: 'b' })),
    );
    expect(both.map((r) => r.body.code).sort()).toEqual([0, 1]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.find((r) => r.body.code === 0)?.body.msg).toBe('Unknown upload');
    expect(namesOf(await list('merchant'))).toEqual(['b', 'a']);
    // The loser's poster was not kept: the posters stored are the two resources' own.
    const rows = await t.db.selectFrom('resources').select('poster_key').execute();
    const stored = fs
      .readdirSync(path.join(t.dataDir, 'files', 'posters'), {
        recursive: true,
        withFileTypes: true,
      })
      .filter((e) => e.isFile())
      .map((e) => e.name);
    expect(stored.sort()).toEqual(rows.map((r) => r.poster_key!.split('/').pop()).sort());
  });

  it('add: another user’s upload or group answers like a missing one; a refused file leaves nothing', async () => {
    const theirs = await putUpload(t, ids.merchant2, {
      type: 'image',
      name: 'x.png',
      bytes: MEDIA.png,
    });
    const a = await post('merchant', '/add', { upload_key: theirs.uploadKey, name: 'x' });
    const b = await post('merchant', '/add', { upload_key: 'a'.repeat(24), name: 'x' });
    expect(a.raw).toBe(b.raw);
    expect(a.body.msg).toBe('Unknown upload');
    const theirGroup = await addGroup('merchant2', 'Theirs');
    const mine = await putUpload(t, ids.merchant, {
      type: 'image',
      name: 'y.png',
      bytes: MEDIA.png,
    });
    const c = await post('merchant', '/add', {
      upload_key: mine.uploadKey,
      name: 'y',
      group_id: theirGroup,
    });
    const d = await post('merchant', '/add', {
      upload_key: mine.uploadKey,
      name: 'y',
      group_id: theirGroup + 99,
    });
    expect(c.raw).toBe(d.raw);
    expect(c.body.msg).toBe('Group not found');
    // The upload was not used up by the refusal.
    expect(
      (await post('merchant', '/add', { upload_key: mine.uploadKey, name: 'y' })).body.code,
    ).toBe(1);
    const fake = await putUpload(t, ids.merchant, {
      type: 'image',
      name: 'fake.png',
      bytes: Buffer.from('<html><script>alert(1)</script></html>'),
    });
    const refused = await post('merchant', '/add', { upload_key: fake.uploadKey, name: 'fake' });
    expect(refused.body.code).toBe(0);
    expect(refused.body.msg).not.toBe('Unknown upload');
    expect(await t.app.ctx.storage.exists(fake.storageKey)).toBe(false);
    expect(namesOf(await list('merchant'))).toEqual(['y']);
  });

  it('scope: a partner’s resources are its own; it sees none of its merchants’, nor they its', async () => {
    await putResource(t, ids.partner, { name: 'partner file' });
    await putResource(t, ids.merchant, { name: 'merchant file' });
    await putResource(t, ids.merchant2, { name: 'merchant2 file' });
    await putResource(t, ids.partner2, { name: 'partner2 file' });
    expect(namesOf(await list('partner'))).toEqual(['partner file']);
    expect(namesOf(await list('merchant'))).toEqual(['merchant file']);
    expect(namesOf(await list('merchant2'))).toEqual(['merchant2 file']);
    expect(namesOf(await list('partner2'))).toEqual(['partner2 file']);
    await addGroup('partner', 'Mine');
    expect((await get<GroupListReply>('merchant', '/group_list')).body.data).toEqual({
      list: [],
      ungrouped: 1,
    });
  });

  it('admin and agent have no library: every call is refused as other role refusals are', async () => {
    const calls: [string, 'GET' | 'POST', unknown][] = [
      ['/list', 'GET', undefined],
      ['/group_list', 'GET', undefined],
      ['/edit', 'POST', { id: 1, name: 'x' }],
      ['/delete', 'POST', { ids: [1] }],
      ['/group_add', 'POST', { name: 'x' }],
      ['/group_edit', 'POST', { id: 1, name: 'x' }],
      ['/group_delete', 'POST', { id: 1 }],
    ];
    for (const who of ['admin', 'agent'] as const) {
      for (const [path, method, body] of calls) {
        const reply = await t.call(method, api(`/resource${path}`), {
          token: tokens[who],
          body,
          headers: EN,
        });
        expect(reply.status, `${who} ${path}`).toBe(403);
        expect(reply.body).toEqual({
          code: 0,
          msg: 'You do not have permission for this action',
          data: null,
        });
      }
    }
  });

  it('edit renames and moves between the caller’s groups; 0 ungroups', async () => {
    const group = await addGroup('merchant', 'Trips');
    const { id } = await putResource(t, ids.merchant, { name: 'old' });
    const renamed = await post<Resource>('merchant', '/edit', { id, name: '  new name  ' });
    expect(renamed.body).toMatchObject({ code: 1, msg: 'Saved' });
    expect(renamed.body.data).toMatchObject({ id, name: 'new name', group_id: null });
    const moved = await post<Resource>('merchant', '/edit', { id, group_id: group });
    expect(moved.body.data).toMatchObject({ name: 'new name', group_id: group });
    expect(namesOf(await list('merchant', { group_id: String(group) }))).toEqual(['new name']);
    const back = await post<Resource>('merchant', '/edit', { id, group_id: 0 });
    expect(back.body.data.group_id).toBeNull();
    const nothing = await post('merchant', '/edit', { id });
    expect(nothing.body.code).toBe(0);
  });

  it('another user’s resource or group answers exactly like a missing one', async () => {
    const theirs = await putResource(t, ids.merchant2, { name: 'theirs' });
    const theirGroup = await addGroup('merchant2', 'Theirs');
    const mine = await putResource(t, ids.merchant, { name: 'mine' });
    const missing = theirs.id + 1000;
    const missingGroup = theirGroup + 1000;
    const pairs: [string, unknown, unknown][] = [
      ['/edit', { id: theirs.id, name: 'x' }, { id: missing, name: 'x' }],
      ['/edit', { id: mine.id, group_id: theirGroup }, { id: mine.id, group_id: missingGroup }],
      ['/delete', { ids: [theirs.id] }, { ids: [missing] }],
      ['/delete', { ids: [mine.id, theirs.id] }, { ids: [mine.id, missing] }],
      ['/group_edit', { id: theirGroup, name: 'y' }, { id: missingGroup, name: 'y' }],
      ['/group_delete', { id: theirGroup }, { id: missingGroup }],
    ];
    for (const [path, other, absent] of pairs) {
      const a = await post('merchant', path, other);
      const b = await post('merchant', path, absent);
      expect(a.status, path).toBe(b.status);
      expect(a.raw, path).toBe(b.raw);
      expect(a.body.code, path).toBe(0);
    }
    expect((await post('merchant', '/edit', { id: missing, name: 'x' })).body.msg).toBe(
      'Resource not found',
    );
    expect((await post('merchant', '/group_delete', { id: missingGroup })).body.msg).toBe(
      'Group not found',
    );
    // Nothing of theirs changed, and a refused batch deleted none of mine.
    expect(namesOf(await list('merchant2'))).toEqual(['theirs']);
    expect(namesOf(await list('merchant'))).toEqual(['mine']);
    expect((await get<GroupListReply>('merchant2', '/group_list')).body.data.list).toEqual([
      { id: theirGroup, name: 'Theirs', count: 0 },
    ]);
  });

  it('group names: 1–20 characters after trimming, unique per owner, a clear refusal in both locales', async () => {
    const twenty = '素'.repeat(20);
    expect((await post<ResourceGroup>('merchant', '/group_add', { name: twenty })).body).toEqual({
      code: 1,
      msg: 'Group created',
      data: { id: expect.any(Number), name: twenty, count: 0 },
    });
    for (const name of ['', '   ', '素'.repeat(21), 'a\u0000b']) {
      const reply = await post('merchant', '/group_add', { name });
      expect(reply.body.code, JSON.stringify(name)).toBe(0);
    }
    expect((await post('merchant', '/group_add', { name: '' })).body.msg).toBe(
      'Group name: 1 to 20 characters',
    );
    const trips = await addGroup('merchant', ' Trips ');
    const dup = await post('merchant', '/group_add', { name: 'Trips' });
    expect(dup.body).toEqual({ code: 0, msg: 'A group named “Trips” already exists', data: null });
    const zh = await post('merchant', '/group_add', { name: 'Trips' }, { lang: 'zh-CN' });
    expect(zh.body.msg).toBe('已存在名为“Trips”的分组');
    // Another owner may use the same name.
    await addGroup('partner', 'Trips');
    // Renaming onto another group's name is refused; onto its own name is fine.
    const food = await addGroup('merchant', 'Food');
    expect((await post('merchant', '/group_edit', { id: food, name: 'Trips' })).body.msg).toBe(
      'A group named “Trips” already exists',
    );
    const same = await post<ResourceGroup>('merchant', '/group_edit', { id: trips, name: 'Trips' });
    expect(same.body.code).toBe(1);
    const renamed = await post<ResourceGroup>('merchant', '/group_edit', {
      id: food,
      name: 'Dishes',
    });
    expect(renamed.body).toEqual({
      code: 1,
      msg: 'Group saved',
      data: { id: food, name: 'Dishes', count: 0 },
    });
    const groups = await get<GroupListReply>('merchant', '/group_list');
    expect(groups.body.data.list.map((g) => g.name)).toEqual([twenty, 'Trips', 'Dishes']);
  });

  it('group_list counts live resources; deleting a group moves its resources to ungrouped', async () => {
    const trips = await addGroup('merchant', 'Trips');
    const food = await addGroup('merchant', 'Food');
    const [a, , c] = await putMany('merchant', [
      { name: 'a', groupId: trips },
      { name: 'b', groupId: trips },
      { name: 'c', groupId: trips },
      { name: 'd', groupId: food },
      { name: 'e' },
    ]);
    await post('merchant', '/delete', { ids: [c.id] });
    expect((await get<GroupListReply>('merchant', '/group_list')).body.data).toEqual({
      list: [
        { id: trips, name: 'Trips', count: 2 },
        { id: food, name: 'Food', count: 1 },
      ],
      ungrouped: 1,
    });
    const deleted = await post('merchant', '/group_delete', { id: trips });
    expect(deleted.body).toEqual({
      code: 1,
      msg: 'Group deleted; its resources are now ungrouped',
      data: null,
    });
    expect((await get<GroupListReply>('merchant', '/group_list')).body.data).toEqual({
      list: [{ id: food, name: 'Food', count: 1 }],
      ungrouped: 3,
    });
    expect(namesOf(await list('merchant', { group_id: '0' }))).toEqual(['e', 'b', 'a']);
    expect((await post('merchant', '/edit', { id: a.id, group_id: trips })).body.msg).toBe(
      'Group not found',
    );
    // The name is free again.
    await addGroup('merchant', 'Trips');
  });

  it('delete hides resources (soft delete); a second delete finds nothing', async () => {
    const [a, b, c] = await putMany('merchant', [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    const reply = await post('merchant', '/delete', { ids: [a.id, b.id, a.id] });
    expect(reply.body).toEqual({ code: 1, msg: 'Resources deleted', data: { count: 2 } });
    expect(namesOf(await list('merchant'))).toEqual(['c']);
    expect((await post('merchant', '/delete', { ids: [a.id] })).body.msg).toBe(
      'Resource not found',
    );
    expect((await post('merchant', '/edit', { id: b.id, name: 'x' })).body.msg).toBe(
      'Resource not found',
    );
    const row = await t.db
      .selectFrom('resources')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.deleted_at)).toBe(t.clock());
    expect(row.file_deleted_at).toBeNull();
    expect(await t.app.ctx.storage.exists(a.storageKey)).toBe(true);
    expect(c.id).toBeGreaterThan(0);
  });

  it('the sweep keeps a deleted resource’s file while a task refers to it, removes it after', async () => {
    const [used, unused, live] = await putMany('merchant', [
      { name: 'used' },
      { name: 'unused' },
      { name: 'live' },
    ]);
    const storage = t.app.ctx.storage;
    await t.db
      .insertInto('resource_refs')
      .values({ resource_id: used.id, task_kind: 'mix', task_id: 7, created_at: t.clock() })
      .execute();
    const quotaUsed = async () =>
      (
        await t.call<{ used: number }>('GET', api('/upload/quota'), {
          token: tokens.merchant,
          headers: EN,
        })
      ).body.data.used;
    const before = await quotaUsed();
    await post('merchant', '/delete', { ids: [used.id, unused.id] });
    // The file kept for the task still counts against the quota (docs/domain.md §8); the other not.
    expect(await quotaUsed()).toBe(before - 64);
    expect(await sweepResourceFiles(t.app.ctx)).toBe(1);
    expect(await quotaUsed()).toBe(before - 64);
    expect(await storage.exists(used.storageKey)).toBe(true);
    expect(await storage.exists(used.posterKey!)).toBe(true);
    expect(await storage.exists(unused.storageKey)).toBe(false);
    expect(await storage.exists(unused.posterKey!)).toBe(false);
    expect(await storage.exists(live.storageKey)).toBe(true);
    const fileDeleted = async (id: number) =>
      (
        await t.db
          .selectFrom('resources')
          .select('file_deleted_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).file_deleted_at;
    expect(Number(await fileDeleted(unused.id))).toBe(t.clock());
    expect(await fileDeleted(used.id)).toBeNull();
    // Still referenced: a second sweep keeps it too.
    expect(await sweepResourceFiles(t.app.ctx)).toBe(0);
    expect(await storage.exists(used.storageKey)).toBe(true);
    // The task no longer refers to it: the next sweep removes it.
    await t.db.deleteFrom('resource_refs').where('resource_id', '=', used.id).execute();
    expect(await quotaUsed()).toBe(before - 128);
    expect(await sweepResourceFiles(t.app.ctx)).toBe(1);
    expect(await quotaUsed()).toBe(before - 128);
    expect(await storage.exists(used.storageKey)).toBe(false);
    expect(await storage.exists(used.posterKey!)).toBe(false);
    expect(await fileDeleted(used.id)).not.toBeNull();
    expect(await fileDeleted(live.id)).toBeNull();
    expect(await sweepResourceFiles(t.app.ctx)).toBe(0);
  });

  it('the sweep runs as a recurring job of the app’s worker', async () => {
    const gone = await putResource(t, ids.merchant, { name: 'gone' });
    await post('merchant', '/delete', { ids: [gone.id] });
    const { startAppWorker } = await import('../../server/app-jobs');
    const worker = startAppWorker(t.app.ctx, { everyMs: 50 });
    try {
      const deadline = Date.now() + 10_000;
      while ((await t.app.ctx.storage.exists(gone.storageKey)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await worker.close();
    }
    expect(await t.app.ctx.storage.exists(gone.storageKey)).toBe(false);
  });

  it('bad input never gets a 5xx: each is refused with the envelope', async () => {
    const { id } = await putResource(t, ids.merchant, { name: 'x' });
    const huge = [9007199254740991, 2147483648, 1e300, -1, 0, 1.5, '1e3', 'abc', null, [], {}];
    const bodies: [string, unknown][] = [];
    for (const v of huge) {
      bodies.push(['/edit', { id: v, name: 'n' }]);
      bodies.push(['/edit', { id, group_id: v }]);
      bodies.push(['/delete', { ids: [v] }]);
      bodies.push(['/delete', { ids: v }]);
      bodies.push(['/group_add', { name: v }]);
      bodies.push(['/group_edit', { id: v, name: 'n' }]);
      bodies.push(['/group_delete', { id: v }]);
    }
    bodies.push(['/delete', { ids: Array.from({ length: 1001 }, (_, i) => i + 1) }]);
    bodies.push(['/edit', { id, name: 'n'.repeat(101) }]);
    bodies.push(['/edit', { id, name: 'a\u0000' }]);
    bodies.push(['/edit', { id, extra: 1, name: 'n' }]);
    for (const [path, body] of bodies) {
      const reply = await post('merchant', path, body);
      const where = `${path} ${JSON.stringify(body)}`;
      expect(reply.status, where).toBeLessThan(500);
      expect(typeof reply.body.msg, where).toBe('string');
      // Coerced to a valid call: a group id that reads as 0 ungroups; any string names a group.
      const valid =
        (path === '/group_add' && typeof (body as { name: unknown }).name === 'string') ||
        (path === '/edit' &&
          'group_id' in (body as object) &&
          Number((body as { group_id: unknown }).group_id) === 0);
      expect(reply.body.code, where).toBe(valid ? 1 : 0);
    }
    const queries: Record<string, string>[] = [
      { group_id: '1e300' },
      { group_id: '2147483648' },
      { group_id: '-1' },
      { group_id: 'x' },
      { type: 'exe' },
      { page: '0' },
      { page: '1000001' },
      { limit: '101' },
      { limit: '0' },
      { keyword: 'k'.repeat(101) },
      { keyword: '\u0000' },
      { other: '1' },
    ];
    for (const query of queries) {
      const reply = await get('merchant', '/list', query);
      expect(reply.status, JSON.stringify(query)).toBeLessThan(500);
      if (query.group_id === '2147483648') {
        expect(reply.body, JSON.stringify(query)).toEqual({
          code: 1,
          msg: 'Success',
          data: { list: [], total: 0 },
        });
      } else {
        expect(reply.body.code, JSON.stringify(query)).toBe(0);
      }
    }
    const groupList = await t.call('GET', api('/resource/group_list'), {
      token: tokens.merchant,
      query: { x: '1' },
    });
    expect(groupList.status).toBeLessThan(500);
  });
});
