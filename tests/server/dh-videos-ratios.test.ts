import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEMPLATE_RATIOS, type DhTemplateList } from '../../src/api/contract/dh-templates';
import type { DhAddReply } from '../../src/api/contract/digital-human';
import { FRAME_SIZE, VIDEO_RATIOS } from '../../src/api/contract/video-tasks';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { api, createTestApp, type TestApp } from './helpers';
import { probeStreams } from './dh-videos-render-suite';
import { fixtureApp, putThings, videoBody, waitVideo } from './dh-video-fixtures';

/**
 * Every ratio in every kind of video (docs/domain.md §10 "Frame"): a digital-human video made
 * with each template (9:16, 16:9, 1:1 and 4:3, the ratios of the video tasks) really renders
 * (the embedded provider, SQLite, the embedded queue) at the template's frame, the video tasks'
 * 720p size of that ratio, read back with ffprobe. The template list on both engines:
 * dh-videos.test.ts.
 */
const EN = { lang: 'en-US' };
vi.setConfig({ testTimeout: 180_000 });

describe('digital-human videos in every ratio', () => {
  let t: TestApp;
  let token: string;

  beforeEach(async () => {
    t = await createTestApp('sqlite', {
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
    token = await t.login('merchant');
  });
  afterEach(async () => {
    await t.close();
  });

  it('renders a video per template at its ratio’s frame size', async () => {
    expect([...TEMPLATE_RATIOS].sort()).toEqual([...VIDEO_RATIOS].sort());
    const merchantId = (await t.user('merchant')).id;
    const things = await putThings(fixtureApp(t), merchantId, { real: true });
    const templates = await t.call<DhTemplateList>('GET', api('/digital_human/template_list'), {
      token,
      headers: EN,
    });
    expect(templates.body.code, templates.raw).toBe(1);
    const byRatio = VIDEO_RATIOS.map((ratio) => {
      const template = templates.body.data.list.find((x) => x.ratio === ratio);
      expect(template, `a ${ratio} template`).toBeDefined();
      return template!;
    });
    const ids: number[] = [];
    for (const template of byRatio) {
      const reply = await t.call<DhAddReply>('POST', api('/digital_human/video_add'), {
        token,
        headers: EN,
        body: videoBody(things, { text: 'Hi there.', template_id: template.id }),
      });
      expect(reply.body.code, reply.raw).toBe(1);
      ids.push(reply.body.data.id);
    }
    startAppWorker(t.app.ctx, { everyMs: 200 }); // closed by t.close()
    for (const [i, template] of byRatio.entries()) {
      const video = await waitVideo(t, token, ids[i]!);
      expect(video.status, JSON.stringify(video)).toBe('done');
      const { width, height } = FRAME_SIZE[template.ratio]['720p'];
      const row = await t.db
        .selectFrom('dh_videos')
        .select('storage_key')
        .where('id', '=', ids[i]!)
        .executeTakeFirstOrThrow();
      const probed = await probeStreams(t.app.ctx.storage.localFiles!.path(row.storage_key!));
      expect(probed.video, template.ratio).toMatchObject({ codec: 'h264', width, height });
      expect([video.width, video.height], template.ratio).toEqual([width, height]);
    }
    expect(await reconcile(t.db)).toEqual([]);
  });
});
