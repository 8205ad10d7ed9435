import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoTaskAddReply, VideoTaskCancelReply } from '../../src/api/contract/video-tasks';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { api, createTestApp, engines, type TestApp } from './helpers';
import { putResource } from './resource-fixtures';
import { mixedBody } from './video-task-fixtures';

const EN = { lang: 'en-US' };

/**
 * Cancel calls racing for one task (no worker runs: the outputs stay queued): the queued outputs
 * are refunded once, and only the call that cancelled them says so; the others answer that
 * nothing was left to cancel, as a later call would.
 */
describe.each(engines)('concurrent cancels of one task on %s', (engine) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await t.login('merchant');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('five at once: one cancels and refunds, four find nothing to cancel', async () => {
    const ownerId = (await t.user('merchant')).id;
    const groups: number[][] = [];
    for (let g = 0; g < 3; g += 1) {
      const shot = async (i: number) =>
        (await putResource(t, ownerId, { name: `g${g} shot ${i}`, durationMs: 2000 })).id;
      groups.push([await shot(1), await shot(2)]);
    }
    const added = await t.call<VideoTaskAddReply>('POST', api('/video_task/add'), {
      token,
      body: mixedBody(groups, { count: 4 }),
      headers: EN,
    });
    expect(added.body.code, added.raw).toBe(1);
    const before = Number((await t.user('merchant')).money);

    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.call<VideoTaskCancelReply>('POST', api('/video_task/cancel'), {
          token,
          body: { id: added.body.data.id },
          headers: EN,
        }),
      ),
    );
    const said = replies.map((r) => r.body.msg).sort();
    expect(said).toEqual([
      'The queued videos are cancelled and refunded',
      ...Array(4).fill('This task has no queued videos to cancel'),
    ]);
    const winner = replies.find((r) => r.body.code === 1);
    expect(winner?.body.data).toEqual({ count: 4, refunded: '0.40' });
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(Number((await t.user('merchant')).money)).toBe(before + 40);
    expect(await reconcile(t.db)).toEqual([]);
  });
});
