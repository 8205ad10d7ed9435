import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GroupListReply, ResourcePage } from '../../src/api/contract/resources';
import type {
  VideoTaskAddReply,
  VideoTaskDetail,
  VideoTaskPage,
} from '../../src/api/contract/video-tasks';
import type { Engine } from '../../server/platform/db/dialect';
import { startAppWorker } from '../../server/app-jobs';
import { sweepResourceFiles } from '../../server/modules/resources/sweep-files';
import { api, createTestApp, engines, type TestApp } from './helpers';
import { mixedBody, putShotGroups, waitFinished } from './video-task-fixtures';
import { sha, unzipReply } from './zip-fixtures';

const EN = { lang: 'en-US' };

/**
 * Finished outputs as material and "download all" (docs/domain.md §8 "Works", §9): a rendered
 * task's outputs are works in the library (the same files), its ZIP holds each once with its
 * bytes, deleting the task keeps the files the library shows; queued outputs show their place.
 */
describe.each(engines)('works, download all and the queue on %s', (engine: Engine) => {
  vi.setConfig({ testTimeout: 120_000 });
  let t: TestApp;
  let token: string;
  let merchantId: number;

  beforeEach(async () => {
    t = await createTestApp(engine, {
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
    merchantId = (await t.user('merchant')).id;
    token = await t.login('merchant');
  });
  afterEach(async () => {
    await t.close();
  });

  const get = <T>(url: string, query: Record<string, string> = {}) =>
    t.call<T>('GET', api(url), { token, query, headers: EN });
  const post = <T>(url: string, body: unknown) =>
    t.call<T>('POST', api(url), { token, body, headers: EN });
  async function add(body: unknown): Promise<number> {
    const reply = await post<VideoTaskAddReply>('/video_task/add', body);
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.id;
  }
  const pathOf = (key: string) => t.app.ctx.storage.localFiles!.path(key);
  const exists = (key: string) =>
    fs.stat(pathOf(key)).then(
      () => true,
      () => false,
    );
  /** GET of a link the console opens as it is (no session token). */
  const open = (url: string) => t.app.inject({ method: 'GET', url });

  it('zips every done output once with its bytes, lists them as works, and keeps their files after the task is deleted', async () => {
    const groups = await putShotGroups(t, merchantId);
    // Two groups of 0.8 s shots: 1.6 s outputs, quick to render.
    const id = await add(mixedBody(groups.slice(0, 2), { count: 3, name: 'Spring/sale' }));
    startAppWorker(t.app.ctx, { everyMs: 200 });
    const task = await waitFinished(t, token, id);
    expect(task.status, JSON.stringify(task.outputs)).toBe('done');
    const outputs = await t.db
      .selectFrom('video_outputs')
      .select(['id', 'idx', 'storage_key', 'poster_key'])
      .where('task_id', '=', id)
      .orderBy('idx')
      .execute();
    expect(outputs).toHaveLength(3);

    // ---- download all: the signed link streams a ZIP of the three files
    expect(task.download_all_url).toMatch(
      /^\/api\/v1\/video_task\/download_all\?id=\d+&exp=\d+&sig=/,
    );
    const list = await get<VideoTaskPage>('/video_task/list', { kind: 'mixed' });
    expect(list.body.data.list.find((x) => x.id === id)?.download_all_url).toMatch(/sig=/);
    const zip = await open(task.download_all_url!);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(Number(zip.headers['content-length'])).toBe(zip.rawPayload.length);
    expect(String(zip.headers['content-disposition'])).toMatch(/^attachment; /);
    const entries = await unzipReply(zip.rawPayload);
    expect([...entries.keys()]).toEqual([
      'Spring_sale-1.mp4',
      'Spring_sale-2.mp4',
      'Spring_sale-3.mp4',
    ]);
    for (const o of outputs) {
      const stored = await fs.readFile(pathOf(o.storage_key!));
      expect(sha(entries.get(`Spring_sale-${o.idx}.mp4`)!)).toBe(sha(stored));
    }
    // A changed signature, another task's id, an expired link: the same 404.
    const bad = task.download_all_url!.replace(/sig=./, (s) =>
      s.endsWith('A') ? 'sig=B' : 'sig=A',
    );
    expect((await open(bad)).statusCode).toBe(404);
    expect(
      (await open(task.download_all_url!.replace(`id=${id}`, `id=${id + 1}`))).statusCode,
    ).toBe(404);
    expect((await open(task.download_all_url!.replace(/exp=\d+/, 'exp=1000'))).statusCode).toBe(
      404,
    );

    // ---- works: the three outputs are videos of the works group, reading the same files
    const groupsReply = await get<GroupListReply>('/resource/group_list');
    const works = groupsReply.body.data.list.find((g) => g.works);
    expect(works, groupsReply.raw).toMatchObject({ name: 'Works', count: 3 });
    const zh = await t.call<GroupListReply>('GET', api('/resource/group_list'), {
      token,
      headers: { lang: 'zh-CN' },
    });
    expect(zh.body.data.list.find((g) => g.works)?.name).toBe('作品');
    const inWorks = await get<ResourcePage>('/resource/list', {
      group_id: String(works!.id),
      type: 'video',
    });
    expect(inWorks.body.data.list.map((r) => r.name).sort()).toEqual([
      'Spring/sale-1',
      'Spring/sale-2',
      'Spring/sale-3',
    ]);
    const rows = await t.db
      .selectFrom('resources')
      .select(['id', 'storage_key', 'source_id'])
      .where('source_kind', '=', 'video_output')
      .orderBy('source_id')
      .execute();
    expect(rows.map((r) => r.storage_key)).toEqual(outputs.map((o) => o.storage_key));
    // The works group is the server's: not renamed, not deleted.
    const rename = await post('/resource/group_edit', { id: works!.id, name: 'Mine' });
    expect(rename.body).toMatchObject({
      code: 0,
      msg: 'The works group cannot be renamed or deleted',
    });
    expect((await post('/resource/group_delete', { id: works!.id })).body.code).toBe(0);

    // ---- a work deleted while its task lives: hidden, its file kept for the task
    const first = rows[0]!;
    expect((await post('/resource/delete', { ids: [Number(first.id)] })).body.code).toBe(1);
    await sweepResourceFiles(t.app.ctx);
    expect(await exists(first.storage_key)).toBe(true);

    // ---- the task deleted: the files the library still shows stay, the other goes with the sweep
    expect((await post('/video_task/delete', { ids: [id] })).body.code).toBe(1);
    expect(await exists(outputs[1]!.storage_key!)).toBe(true);
    expect(await exists(outputs[2]!.storage_key!)).toBe(true);
    expect(await exists(outputs[1]!.poster_key!)).toBe(true);
    const still = await get<ResourcePage>('/resource/list', { group_id: String(works!.id) });
    expect(still.body.data.total).toBe(2);
    const played = await fetchLocal(still.body.data.list[0]!.url);
    expect(played).toBe(200);
    // The worker's own recurring sweep may be removing it at the same time (it claims the row, so
    // this sweep skips it): the file is gone once one of them has run.
    await sweptAway(first.storage_key);
    expect(await exists(outputs[1]!.storage_key!)).toBe(true);
    // Deleting a remaining work lets the sweep remove its file at last.
    expect((await post('/resource/delete', { ids: [Number(rows[1]!.id)] })).body.code).toBe(1);
    await sweptAway(outputs[1]!.storage_key!);
    expect(await exists(outputs[2]!.storage_key!)).toBe(true);
  });

  /** Sweeps until `key`'s file is gone (the worker's recurring sweep may hold its row meanwhile). */
  async function sweptAway(key: string): Promise<void> {
    await vi.waitFor(
      async () => {
        await sweepResourceFiles(t.app.ctx);
        expect(await exists(key)).toBe(false);
      },
      { timeout: 15_000, interval: 200 },
    );
  }

  async function fetchLocal(url: string): Promise<number> {
    return (await open(url)).statusCode;
  }

  it('shows queued outputs’ places in the queue and their estimated starts, on the list and the detail', async () => {
    const groups = await putShotGroups(t, merchantId);
    const first = await add(mixedBody(groups, { count: 2, name: 'First' }));
    const second = await add(mixedBody(groups, { count: 3, name: 'Second' }));
    // No worker runs: everything waits. Another owner's queued output counts too.
    const list = await get<VideoTaskPage>('/video_task/list', { kind: 'mixed' });
    const byId = new Map(list.body.data.list.map((x) => [x.id, x]));
    expect(byId.get(first)?.queue_position).toBe(1);
    expect(byId.get(second)?.queue_position).toBe(3);
    expect(byId.get(first)?.download_all_url).toBeNull();
    const detail = await get<VideoTaskDetail>('/video_task/detail', { id: String(second) });
    expect(detail.body.data.outputs.map((o) => o.queue_position)).toEqual([3, 4, 5]);
    const starts = detail.body.data.outputs.map((o) => o.estimated_start!);
    const now = t.app.ctx.now();
    // One render slot, no render yet (30 s assumed each): the third starts two renders from now.
    expect(starts.map((s) => Math.round((s - now) / 1000))).toEqual([60, 90, 120]);
    expect(detail.body.data.estimated_start).toBe(starts[0]);
    // Cancelling the first task moves the second's up.
    expect((await post('/video_task/cancel', { id: first })).body.code).toBe(1);
    const after = await get<VideoTaskDetail>('/video_task/detail', { id: String(second) });
    expect(after.body.data.outputs.map((o) => o.queue_position)).toEqual([1, 2, 3]);
    expect(after.body.data.queue_position).toBe(1);
  });
});
