import { PRESETS_MAX } from '../../src/api/contract/video-task-presets';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  VideoTaskPreset,
  VideoTaskPresetDetail,
  VideoTaskPresetPage,
  VideoTaskSource,
} from '../../src/api/contract/video-task-presets';
import type { VideoTaskAddReply } from '../../src/api/contract/video-tasks';
import { api, createTestApp, engines, snapshot, type Reply, type TestApp } from './helpers';
import { putResource } from './resource-fixtures';
import { mixedBody } from './video-task-fixtures';

/**
 * Presets (save, list, detail, delete) and duplicates (a task's body back) of video tasks
 * (docs/domain.md §9 "Presets, batches and previews"): each is the caller's own; another person
 * cannot read or delete it; a refused call changes nothing.
 */
const EN = { lang: 'en-US' };
const NAMES = ['merchant', 'merchant2', 'agent'] as const;
type Name = (typeof NAMES)[number];

describe.each(engines)('video task presets on %s', (engine) => {
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
    groups = [];
    for (let g = 0; g < 2; g += 1) {
      const row: number[] = [];
      for (let i = 0; i < 2; i += 1) {
        row.push(
          (await putResource(t, ids.merchant, { name: `g${g} s${i}`, durationMs: 2000 })).id,
        );
      }
      groups.push(row);
    }
  });
  afterEach(async () => {
    await t.close();
  });

  const post = <T = unknown>(who: Name, url: string, body: unknown): Promise<Reply<T>> =>
    t.call<T>('POST', api(url), { token: tokens[who], body, headers: EN });
  const get = <T = unknown>(who: Name, url: string, query: Record<string, string>) =>
    t.call<T>('GET', api(url), { token: tokens[who], query, headers: EN });
  const presetTables = async () => ({
    ...(await snapshot(t.db)),
    presets: await t.db.selectFrom('video_task_presets').selectAll().execute(),
  });

  it('saves a named preset, lists it, gives its body and resources back, and deletes it', async () => {
    const body = mixedBody(groups, { count: 2 });
    const saved = await post<VideoTaskPreset>('merchant', '/video_task_preset/save', {
      name: 'Weekly promo',
      body,
    });
    expect(saved.body.code, saved.raw).toBe(1);
    expect(saved.body.msg).toBe('Preset saved');
    expect(saved.body.data).toMatchObject({ name: 'Weekly promo', kind: 'mixed' });
    const id = saved.body.data.id;

    const list = await get<VideoTaskPresetPage>('merchant', '/video_task_preset/list', {
      kind: 'mixed',
    });
    expect(list.body.data.list.map((p) => p.name)).toEqual(['Weekly promo']);
    const clips = await get<VideoTaskPresetPage>('merchant', '/video_task_preset/list', {
      kind: 'clip',
    });
    expect(clips.body.data.total).toBe(0);

    const detail = await get<VideoTaskPresetDetail>('merchant', '/video_task_preset/detail', {
      id: String(id),
    });
    expect(detail.body.code, detail.raw).toBe(1);
    expect(detail.body.data.body).toEqual(body);
    expect(detail.body.data.resources.map((r) => r.id).sort((a, b) => a - b)).toEqual(
      groups.flat().sort((a, b) => a - b),
    );

    // The same name again replaces the body, keeping the id.
    const again = await post<VideoTaskPreset>('merchant', '/video_task_preset/save', {
      name: 'Weekly promo',
      body: mixedBody(groups, { count: 4 }),
    });
    expect(again.body.data.id).toBe(id);
    const replaced = await get<VideoTaskPresetDetail>('merchant', '/video_task_preset/detail', {
      id: String(id),
    });
    expect(replaced.body.data.body.count).toBe(4);

    const deleted = await post('merchant', '/video_task_preset/delete', { id });
    expect(deleted.body.code, deleted.raw).toBe(1);
    expect(deleted.body.msg).toBe('Preset deleted');
    const gone = await get('merchant', '/video_task_preset/detail', { id: String(id) });
    expect(gone.body).toMatchObject({ code: 0, msg: 'Preset not found' });
  });

  it('saves at once: one preset per name, and never more than PRESETS_MAX', async () => {
    const body = mixedBody(groups, { count: 2 });
    // The same name six times at once: one preset, no error.
    const same = await Promise.all(
      Array.from({ length: 6 }, () =>
        post<VideoTaskPreset>('merchant', '/video_task_preset/save', { name: 'Same', body }),
      ),
    );
    expect(same.map((r) => r.body.code)).toEqual(Array(6).fill(1));
    const count = async () =>
      (await t.db.selectFrom('video_task_presets').select('id').execute()).length;
    expect(await count()).toBe(1);
    // The last free places taken at once.
    for (let i = 1; i < PRESETS_MAX - 3; i += 1) {
      await post('merchant', '/video_task_preset/save', { name: `P${i}`, body });
    }
    const more = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post('merchant', '/video_task_preset/save', { name: `More ${i}`, body }),
      ),
    );
    expect(more.filter((r) => r.body.code === 1)).toHaveLength(3);
    expect(await count()).toBe(PRESETS_MAX);
  });

  it('keeps presets to their owner: another person cannot list, read or delete them', async () => {
    const saved = await post<VideoTaskPreset>('merchant', '/video_task_preset/save', {
      name: 'Mine',
      body: mixedBody(groups),
    });
    const id = saved.body.data.id;
    const before = await presetTables();
    const list = await get<VideoTaskPresetPage>('merchant2', '/video_task_preset/list', {
      kind: 'mixed',
    });
    expect(list.body.data.total).toBe(0);
    const read = await get('merchant2', '/video_task_preset/detail', { id: String(id) });
    expect(read.body).toMatchObject({ code: 0, msg: 'Preset not found' });
    const del = await post('merchant2', '/video_task_preset/delete', { id });
    expect(del.body).toMatchObject({ code: 0, msg: 'Preset not found' });
    // An agent makes no videos: refused by role.
    const agent = await get('agent', '/video_task_preset/list', { kind: 'mixed' });
    expect(agent.status).toBe(403);
    // Another's preset of the same name is another preset.
    const theirs = await post<VideoTaskPreset>('merchant2', '/video_task_preset/save', {
      name: 'Mine',
      body: mixedBody([[999]]),
    });
    expect(theirs.body.data.id).not.toBe(id);
    // …and reading it never shows another's resources (the ids it names are not theirs).
    const detail = await get<VideoTaskPresetDetail>('merchant2', '/video_task_preset/detail', {
      id: String(theirs.body.data.id),
    });
    expect(detail.body.data.resources).toEqual([]);
    const after = await presetTables();
    expect(after.presets.filter((p) => Number(p.owner_id) === ids.merchant)).toEqual(
      before.presets,
    );
  });

  it('refuses a bad preset with a named reason and changes nothing', async () => {
    const before = await presetTables();
    const noName = await post('merchant', '/video_task_preset/save', {
      name: '  ',
      body: mixedBody(groups),
    });
    expect(noName.body).toMatchObject({ code: 0, msg: 'Preset name: 1 to 30 characters' });
    const badBody = await post('merchant', '/video_task_preset/save', {
      name: 'Bad',
      body: mixedBody(groups, { count: 0 }),
    });
    expect(badBody.body).toMatchObject({
      code: 0,
      msg: 'Number of videos: a whole number from 1 to 100',
    });
    expect(await presetTables()).toEqual(before);
  });

  it('duplicates a task: its body and live resources come back, for its owner only', async () => {
    const body = mixedBody(groups, { count: 2 });
    const added = await post<VideoTaskAddReply>('merchant', '/video_task/add', body);
    expect(added.body.code, added.raw).toBe(1);
    const id = String(added.body.data.id);
    const source = await get<VideoTaskSource>('merchant', '/video_task/source', { id });
    expect(source.body.code, source.raw).toBe(1);
    expect(source.body.data.kind).toBe('mixed');
    expect(source.body.data.body).toEqual(body);
    expect(source.body.data.resources).toHaveLength(4);
    // A resource deleted since is left out.
    await t.db
      .updateTable('resources')
      .set({ deleted_at: Date.now() })
      .where('id', '=', groups[0][0])
      .execute();
    const later = await get<VideoTaskSource>('merchant', '/video_task/source', { id });
    expect(later.body.data.resources.map((r) => r.id)).not.toContain(groups[0][0]);
    const theirs = await get('merchant2', '/video_task/source', { id });
    expect(theirs.body).toMatchObject({ code: 0, msg: 'Task not found' });
  });
});
