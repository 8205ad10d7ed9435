import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DhAddReply } from '../../src/api/contract/digital-human';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { createS3Storage, s3Client } from '../../server/platform/storage/s3';
import { addMedia, cloneFixture, waitImageClone, waitVoiceClone } from './dh-clone-fixtures';
import { fixtureApp, putFolder, videoBody, waitVideo } from './dh-video-fixtures';
import { api, createTestApp, type Reply, type TestApp } from './helpers';
import { startS3TestServer, type S3TestServer } from './s3-test-server';

/**
 * Digital-human files on S3-compatible storage (s3rver behind the SigV4-checking front; SQLite,
 * embedded queue, the embedded provider): an image clone and a voice clone trained from media in
 * the bucket and a video made with them (2–3 s of speech, 720×1280): each result is stored in the
 * bucket, its URLs are presigned and answer (the video's download as an attachment), and deleting
 * each removes its objects.
 */
const EN = { lang: 'en-US' };

describe('digital-human files on S3-compatible storage', () => {
  let t: TestApp;
  let server: S3TestServer;
  let client: ReturnType<typeof s3Client>;

  beforeAll(async () => {
    for (const name of ['take.mp4', 'consent.mp4', 'sample.mp3'] as const) {
      await cloneFixture(name);
    }
  });
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

  it('stores clones and a video in the bucket, signs their URLs, and deletes their objects', async () => {
    const merchantId = (await t.user('merchant')).id;
    const token = await t.login('merchant');
    const post = <T>(url: string, body: unknown): Promise<Reply<T>> =>
      t.call<T>('POST', api(url), { token, body, headers: EN });
    const added = async (url: string, body: unknown) => {
      const reply = await post<DhAddReply>(url, body);
      expect(reply.body.code, reply.raw).toBe(1);
      return reply.body.data.id;
    };
    const storage = t.app.ctx.storage;
    /** A presigned GET of the bucket that answers with a body of this type. */
    const answers = async (url: string | null, type: RegExp) => {
      expect(url).toMatch(new RegExp(`^${server.config.endpoint}/.*X-Amz-Signature=`));
      const reply = await fetch(url!);
      expect(reply.status, url!).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(type);
      expect((await reply.arrayBuffer()).byteLength).toBeGreaterThan(100);
      return reply;
    };

    const imageId = await added('/digital_human/image_clone_add', {
      name: 'Host',
      video_id: await addMedia(t, merchantId, 'take.mp4'),
      consent_video_id: await addMedia(t, merchantId, 'consent.mp4'),
      tier: 'standard',
    });
    const voiceId = await added('/digital_human/voice_clone_add', {
      name: 'Host voice',
      gender: 'female',
      audio_id: await addMedia(t, merchantId, 'sample.mp3'),
    });
    startAppWorker(t.app.ctx, { everyMs: 200 }); // closed by t.close()
    const image = await waitImageClone(t, token, imageId, 150_000);
    expect(image.status, JSON.stringify(image)).toBe('ready');
    await answers(image.cover, /^image\/jpeg/);
    await answers(image.preview_url, /^video\/mp4/);
    const voice = await waitVoiceClone(t, token, voiceId, 150_000);
    expect(voice.status, JSON.stringify(voice)).toBe('ready');
    await answers(voice.demo_url, /^audio\//);

    const videoId = await added(
      '/digital_human/video_add',
      videoBody(
        { avatar: imageId, voice: voiceId, folder: await putFolder(fixtureApp(t), merchantId) },
        { text: 'Hello there, welcome.' },
      ),
    );
    const video = await waitVideo(t, token, videoId, 150_000);
    expect(video.status, JSON.stringify(video)).toBe('done');
    expect([video.width, video.height]).toEqual([720, 1280]);
    await answers(video.url, /^video\/mp4/);
    await answers(video.cover, /^image\/jpeg/);
    const download = await answers(video.download_url, /^video\/mp4/);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; .*\.mp4/);

    // Each result is an object of the bucket; deleting removes them.
    const keysOf = async () => {
      const [i, v, d] = await Promise.all([
        t.db
          .selectFrom('dh_image_clones')
          .selectAll()
          .where('id', '=', imageId)
          .executeTakeFirstOrThrow(),
        t.db
          .selectFrom('dh_voice_clones')
          .selectAll()
          .where('id', '=', voiceId)
          .executeTakeFirstOrThrow(),
        t.db
          .selectFrom('dh_videos')
          .selectAll()
          .where('id', '=', videoId)
          .executeTakeFirstOrThrow(),
      ]);
      return {
        image: [i.poster_key, i.loop_key],
        voice: [v.demo_key],
        video: [d.storage_key, d.poster_key],
      };
    };
    const keys = await keysOf();
    const exist = (list: (string | null)[]) =>
      Promise.all(list.map((key) => (key ? storage.exists(key) : Promise.resolve(null))));
    for (const list of Object.values(keys)) expect(await exist(list)).toEqual(list.map(() => true));
    expect((await post('/digital_human/video_delete', { ids: [videoId] })).body.code).toBe(1);
    // The done video is a work in the library (docs/domain.md §8 "Works"): its objects stay.
    expect(await exist(keys.video)).toEqual([true, true]);
    expect((await post('/digital_human/image_clone_delete', { ids: [imageId] })).body.code).toBe(1);
    expect((await post('/digital_human/voice_clone_delete', { ids: [voiceId] })).body.code).toBe(1);
    expect(await exist([...keys.image, ...keys.voice])).toEqual([false, false, false]);
    expect(await reconcile(t.db)).toEqual([]);
  }, 480_000);
});
