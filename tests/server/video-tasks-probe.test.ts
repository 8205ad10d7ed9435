import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Resource } from '../../src/api/contract/resources';
import type { VideoTaskAddReply } from '../../src/api/contract/video-tasks';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import type * as Render from '../../server/platform/render/render';
import { api, createTestApp, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { expectReadableDetail } from './readable-detail';
import { putUpload } from './resource-fixtures';
import { mixedBody, putShotGroups, SHOT_FILES, waitFinished } from './video-task-fixtures';

/**
 * A video resource's sound and length are known from its row (`has_audio`,
 * recorded at upload), so the renderer does not run ffprobe on the inputs of every output. The
 * render module's `probeVideo` is wrapped to count the probes the video-task job makes (the
 * renderer reads its output's facts from the MP4 header, server/platform/render/mp4-facts.ts, and its
 * ffprobe fallback is a call inside that module, not counted).
 */
const probes = vi.hoisted(() => ({ sources: [] as string[] }));
vi.mock('../../server/platform/render/render', async (importOriginal) => {
  const actual = await importOriginal<typeof Render>();
  return {
    ...actual,
    probeVideo: (file: string, options?: { signal?: AbortSignal }) => {
      probes.sources.push(file);
      return actual.probeVideo(file, options);
    },
  };
});

const EN = { lang: 'en-US' };

describe('video inputs probed once (SQLite, embedded queue)', () => {
  vi.setConfig({ testTimeout: 120_000 });
  let t: TestApp;
  let token: string;
  let merchantId: number;
  beforeEach(async () => {
    t = await createTestApp('sqlite', {
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
    merchantId = (await t.user('merchant')).id;
    token = await t.login('merchant');
    probes.sources.length = 0;
  });
  afterEach(async () => {
    await t.close();
  });

  const hasAudio = async (ids: number[]) =>
    (
      await t.db
        .selectFrom('resources')
        .select(['id', 'has_audio'])
        .where('id', 'in', ids)
        .orderBy('id')
        .execute()
    ).map((r) => (r.has_audio === null ? null : Number(r.has_audio)));
  async function add(body: unknown): Promise<number> {
    const reply = await t.call<VideoTaskAddReply>('POST', api('/video_task/add'), {
      token,
      body,
      headers: EN,
    });
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.id;
  }

  it('records has_audio when an upload becomes a resource', async () => {
    const made: number[] = [];
    for (const name of ['tall-sound.mp4', 'small-silent.mp4'] as const) {
      const { uploadKey } = await putUpload(t, merchantId, {
        type: 'video',
        name,
        bytes: await fixtureBytes(name),
      });
      const reply = await t.call<Resource>('POST', api('/resource/add'), {
        token,
        body: { upload_key: uploadKey, name },
        headers: EN,
      });
      expect(reply.body.code, reply.raw).toBe(1);
      made.push(reply.body.data.id);
    }
    expect(await hasAudio(made)).toEqual([1, 0]);
  });

  it('probes an older row once and writes has_audio back; later outputs probe no input', async () => {
    const groups = await putShotGroups(t, merchantId); // rows written directly: has_audio null
    const ids = groups.flat();
    expect(await hasAudio(ids)).toEqual(ids.map(() => null));
    startAppWorker(t.app.ctx, { everyMs: 200 });
    const body = mixedBody([[groups[0][0]], [groups[1][1]], groups[2]], { count: 3 });
    const first = await waitFinished(t, token, await add(body));
    expect(first.outputs.map((o) => o.status)).toEqual(['done', 'done', 'done']);
    const used = [groups[0][0], groups[1][1], ...groups[2]];
    // small-silent, tall-sound, wide-sound (SHOT_FILES' order).
    const sound = SHOT_FILES.map((f) => (f.name === 'small-silent.mp4' ? 0 : 1));
    expect(await hasAudio(used)).toEqual([sound[0], sound[1], ...sound]);
    // Each used file probed at most once per output that uses it, never again afterwards.
    expect(probes.sources.length).toBeGreaterThan(0);
    expect(probes.sources.length).toBeLessThanOrEqual(9);

    probes.sources.length = 0;
    const second = await waitFinished(t, token, await add(body));
    expect(second.outputs.map((o) => o.status)).toEqual(['done', 'done', 'done']);
    expect(probes.sources).toEqual([]);
  });

  it('a known input that turns out broken fails its output at once (probed after the failed render), refunded', async () => {
    const groups = await putShotGroups(t, merchantId);
    const body = mixedBody([[groups[0][0]], [groups[1][0]], groups[2]], { count: 3 });
    const broken = groups[2][1];
    // As an upload records them (no probe while building the outputs' specs).
    for (const group of groups) {
      for (const [i, id] of group.entries()) {
        const silent = SHOT_FILES[i]?.name === 'small-silent.mp4';
        await t.db
          .updateTable('resources')
          .set({ has_audio: silent ? 0 : 1 })
          .where('id', '=', id)
          .execute();
      }
    }
    const key = (
      await t.db
        .selectFrom('resources')
        .select('storage_key')
        .where('id', '=', broken)
        .executeTakeFirstOrThrow()
    ).storage_key;
    await t.app.ctx.storage.put(key, randomBytes(4096), { contentType: 'video/mp4' });
    const before = Number((await t.user('merchant')).money);
    startAppWorker(t.app.ctx, { everyMs: 200 });
    const task = await waitFinished(t, token, await add(body));
    expect(task.outputs.map((o) => o.status)).toEqual(['done', 'failed', 'done']);
    const failed = task.outputs[1];
    expect(failed.attempts).toBe(1);
    expect(failed.reason).toBe('A material could not be read (its file is damaged or missing)');
    expectReadableDetail(failed.reason_detail, t, [failed.combination[2].name]);
    // Only the failed render probed its inputs.
    const path = t.app.ctx.storage.localFiles!.path(key);
    expect(probes.sources).toContain(path);
    expect(probes.sources.length).toBeLessThanOrEqual(3);
    expect([task.cost, task.settled, task.refunded]).toEqual(['0.30', '0.20', '0.10']);
    expect(Number((await t.user('merchant')).money)).toBe(before - 20);
    expect(await reconcile(t.db)).toEqual([]);
  });
});
