import { afterEach, describe, expect, it } from 'vitest';
import type { ResourcePage } from '../../src/api/contract/resources';
import { DEMO_MEDIA_GROUP, seedDemoMedia } from '../../server/modules/demo/demo-media';
import { api, createTestApp, type TestApp } from './helpers';

/** `npm start` on a fresh data dir: the demo partner's and merchant's libraries hold real media. */
describe('demo media', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const quiet = () => {
    const lines: string[] = [];
    return {
      lines,
      info: (m: string) => lines.push(`info ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
    };
  };

  it('puts probed clips, music and a sticker with posters into a group of the partner and the merchant', async () => {
    t = await createTestApp('sqlite');
    const log = quiet();
    await seedDemoMedia(t.app.ctx, log);
    expect(log.lines).toEqual([expect.stringMatching(/^info demo media added/)]);
    for (const who of ['partner', 'merchant'] as const) {
      const token = await t.login(who);
      const reply = await t.call<ResourcePage>('GET', api('/resource/list'), {
        token,
        query: { limit: '50' },
      });
      const list = reply.body.data.list;
      expect(list.map((r) => r.type).sort()).toEqual([
        'bgm',
        'sticker',
        'video',
        'video',
        'video',
        'video',
      ]);
      const videos = list.filter((r) => r.type === 'video');
      for (const video of videos) {
        expect(video.duration).toBeCloseTo(3, 1);
        expect(video.cover).not.toBeNull();
      }
      expect(videos.some((v) => v.height! > v.width!)).toBe(true);
      const groups = await t.call<{ list: { name: string; count: number }[] }>(
        'GET',
        api('/resource/group_list'),
        { token },
      );
      expect(groups.body.data.list).toEqual([
        expect.objectContaining({ name: DEMO_MEDIA_GROUP, count: 6 }),
      ]);
    }
    // Nobody else gets any.
    const token = await t.login('merchant2');
    const other = await t.call<ResourcePage>('GET', api('/resource/list'), { token });
    expect(other.body.data.total).toBe(0);
  });

  it('without ffmpeg logs why and adds nothing (the rest of the demo still starts)', async () => {
    t = await createTestApp('sqlite');
    const log = quiet();
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await seedDemoMedia(t.app.ctx, log);
    } finally {
      process.env.PATH = path;
    }
    expect(log.lines).toEqual([expect.stringMatching(/^warn demo media not added/)]);
    const token = await t.login('merchant');
    const reply = await t.call<ResourcePage>('GET', api('/resource/list'), { token });
    expect(reply.body.data.total).toBe(0);
  });
});
