import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VideoTaskAddReply } from '../../src/api/contract/video-tasks';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { createS3Storage, s3Client } from '../../server/platform/storage/s3';
import { api, createTestApp, type TestApp } from './helpers';
import { putResource } from './resource-fixtures';
import { startS3TestServer, type S3TestServer } from './s3-test-server';
import { ffprobe, mixedBody, putShotGroups, waitFinished } from './video-task-fixtures';
import { sha, unzipReply } from './zip-fixtures';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Rendering with object storage: ffmpeg reads the inputs through presigned GETs, the output and
 * its poster are uploaded (s3rver behind the SigV4-checking front; SQLite, embedded queue).
 */
describe('video tasks on S3-compatible storage', () => {
  let t: TestApp;
  let server: S3TestServer;
  let client: ReturnType<typeof s3Client>;

  beforeEach(async () => {
    const clock = () => Date.now(); // s3rver checks the expiry against the real time
    server = await startS3TestServer(clock);
    client = s3Client(server.config);
    t = await createTestApp('sqlite', {
      storage: createS3Storage(server.config, clock, client),
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
  });
  afterEach(async () => {
    await t.close();
    client.destroy();
    await server.close();
  });

  it(
    'renders from presigned inputs and stores the output in the bucket',
    { timeout: 90_000 },
    async () => {
      const merchantId = (await t.user('merchant')).id;
      const token = await t.login('merchant');
      const groups = await putShotGroups(t, merchantId);
      // The subtitles' own font is an input like the others: fetched through a presigned GET.
      const font = await putResource(t, merchantId, {
        type: 'font',
        name: 'serif',
        bytes: await fs.readFile('/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf'),
      });
      const reply = await t.call<VideoTaskAddReply>('POST', api('/video_task/add'), {
        token,
        body: mixedBody(groups, {
          count: 2,
          subtitles: { text: 'Serif subtitles.', font: font.id },
        }),
      });
      expect(reply.body.code, reply.raw).toBe(1);
      startAppWorker(t.app.ctx, { everyMs: 200 });
      const task = await waitFinished(t, token, reply.body.data.id);
      expect(task.status, JSON.stringify(task.outputs)).toBe('done');
      expect(
        server.seen.some((line) => line.startsWith('GET ') && line.includes('X-Amz-Signature')),
      ).toBe(true);
      const fontGets = server.seen.filter(
        (line) =>
          line.startsWith('GET ') &&
          line.includes(font.storageKey) &&
          line.includes('X-Amz-Signature'),
      );
      expect(fontGets.length, 'the font read once per output').toBe(task.outputs.length);
      for (const output of task.outputs) {
        // The play URL is a presigned GET of the bucket.
        const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'vc-s3-out-')), 'out.mp4');
        const body = await fetch(output.url!);
        expect(body.status).toBe(200);
        await fs.writeFile(file, Buffer.from(await body.arrayBuffer()));
        const probed = await ffprobe(file);
        expect([probed.codec, probed.width, probed.height]).toEqual(['h264', 720, 1280]);
        expect(Math.abs(probed.duration - 2.4)).toBeLessThanOrEqual(0.1);
        await fs.rm(path.dirname(file), { recursive: true, force: true });
        // The download URL saves the same file under the task's name and the output's number.
        const download = await fetch(output.download_url!);
        expect(download.headers.get('content-disposition')).toMatch(
          new RegExp(`^attachment; .*filename\\*=UTF-8''.*-${output.index}\\.mp4$`),
        );
        await download.body?.cancel();
      }
      // Download all: the ZIP streams the outputs from the bucket, each once with its bytes.
      const zip = await t.app.inject({ method: 'GET', url: task.download_all_url! });
      expect(zip.statusCode, zip.body.slice(0, 200)).toBe(200);
      const entries = await unzipReply(zip.rawPayload);
      expect(entries.size).toBe(task.outputs.length);
      for (const output of task.outputs) {
        const stored = Buffer.from(await (await fetch(output.url!)).arrayBuffer());
        expect(sha(entries.get(`Spring sale-${output.index}.mp4`)!)).toBe(sha(stored));
      }
      expect(await reconcile(t.db)).toEqual([]);
    },
  );
});
