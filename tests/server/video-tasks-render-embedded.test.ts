import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VideoTaskAddReply } from '../../src/api/contract/video-tasks';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { OUTPUT_ATTEMPTS } from '../../server/modules/video-tasks/queue';
import { api, createTestApp, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { expectReadableDetail } from './readable-detail';
import { putResource } from './resource-fixtures';
import { mixedBody, putShotGroups, waitFinished } from './video-task-fixtures';
import { defineRenderSuite } from './video-tasks-render-suite';

defineRenderSuite('embedded');

describe('a render that fails every attempt (SQLite, embedded queue)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp('sqlite', {
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
  });
  afterEach(async () => {
    await t.close();
  });

  it(
    'is run again, then failed with ffmpeg’s last lines and refunded',
    { timeout: 60_000 },
    async () => {
      const merchantId = (await t.user('merchant')).id;
      const token = await t.login('merchant');
      const groups = await putShotGroups(t, merchantId);
      // Music that is not audio: the videos probe fine, ffmpeg fails on every run.
      const song = await putResource(t, merchantId, {
        type: 'bgm',
        name: 'noise',
        bytes: randomBytes(2048),
        durationMs: 1500,
      });
      const before = Number((await t.user('merchant')).money);
      const reply = await t.call<VideoTaskAddReply>('POST', api('/video_task/add'), {
        token,
        body: mixedBody([[groups[0][0]], [groups[1][0]]], { count: 1, music_ids: [song.id] }),
        headers: { lang: 'en-US' },
      });
      expect(reply.body.code, reply.raw).toBe(1);
      startAppWorker(t.app.ctx, { everyMs: 200 });
      const task = await waitFinished(t, token, reply.body.data.id, 50_000);
      expect(task.status).toBe('failed');
      const [output] = task.outputs;
      expect(output.attempts).toBe(OUTPUT_ATTEMPTS);
      expect(output.reason).toBe('The video could not be rendered');
      expectReadableDetail(output.reason_detail, t, ['noise']);
      expect(output.reason_detail).toMatch(/^ffmpeg exited with \d+: /);
      expect(Number((await t.user('merchant')).money)).toBe(before);
      expect([task.cost, task.settled, task.refunded]).toEqual(['0.10', '0.00', '0.10']);
      expect(await reconcile(t.db)).toEqual([]);
    },
  );
});

describe('a clip of a 16:9 video in a 9:16 task (SQLite, embedded queue)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp('sqlite', {
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
  });
  afterEach(async () => {
    await t.close();
  });

  it(
    'is cropped to fill by default, and shown whole over a blur when asked',
    { timeout: 60_000 },
    async () => {
      const merchantId = (await t.user('merchant')).id;
      const token = await t.login('merchant');
      const video = await putResource(t, merchantId, {
        type: 'video',
        name: 'wide',
        bytes: await fixtureBytes('wide-sound.mp4'),
        durationMs: 3000,
      });
      const clip = async (fit: string | undefined) => {
        const reply = await t.call<VideoTaskAddReply>('POST', api('/video_task/add'), {
          token,
          body: {
            ...mixedBody([], fit ? { fit } : {}),
            kind: 'clip',
            mode: undefined,
            count: undefined,
            shot_groups: undefined,
            resource_id: video.id,
            trim: { start: 0, end: 1.5 },
          },
          headers: { lang: 'en-US' },
        });
        expect(reply.body.code, reply.raw).toBe(1);
        return reply.body.data.id;
      };
      const ids = [await clip(undefined), await clip('blur')];
      startAppWorker(t.app.ctx, { everyMs: 200 });
      // The top fifth of the frame at 1 s, averaged down each column: the crop shows the source's
      // yellow and blue bars meeting (a sharp step), the blur a soft one.
      const steps: number[] = [];
      for (const id of ids) {
        const task = await waitFinished(t, token, id, 50_000);
        expect(task.status, JSON.stringify(task.outputs)).toBe('done');
        const row = await t.db
          .selectFrom('video_outputs')
          .select('storage_key')
          .where('id', '=', task.outputs[0]!.id)
          .executeTakeFirstOrThrow();
        const { stdout } = await promisify(execFile)(
          'ffmpeg',
          [
            ...[
              '-v',
              'error',
              '-ss',
              '1',
              '-i',
              t.app.ctx.storage.localFiles!.path(row.storage_key!),
            ],
            ...['-frames:v', '1', '-vf', 'crop=720:256:0:0,scale=720:1', '-f', 'rawvideo'],
            ...['-pix_fmt', 'gray', '-'],
          ],
          { encoding: 'buffer' },
        );
        let step = 0;
        for (let x = 1; x < stdout.length; x += 1) {
          step = Math.max(step, Math.abs(stdout[x]! - stdout[x - 1]!));
        }
        steps.push(step);
      }
      const [crop, blur] = steps as [number, number];
      expect(crop).toBeGreaterThan(100);
      expect(blur).toBeLessThan(30);
    },
  );
});
