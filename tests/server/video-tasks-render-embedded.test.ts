import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VideoTaskAddReply } from '../../src/api/contract/video-tasks';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { OUTPUT_ATTEMPTS } from '../../server/modules/video-tasks/queue';
import { api, createTestApp, type TestApp } from './helpers';
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
      expect(output.reason_detail).toBeTruthy();
      expect(Number((await t.user('merchant')).money)).toBe(before);
      expect([task.cost, task.settled, task.refunded]).toEqual(['0.10', '0.00', '0.10']);
      expect(await reconcile(t.db)).toEqual([]);
    },
  );
});
