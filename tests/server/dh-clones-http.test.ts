import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DhAddReply } from '../../src/api/contract/digital-human';
import type { Engine } from '../../server/platform/db/dialect';
import { startAppWorker } from '../../server/app-jobs';
import { DH_ATTEMPTS } from '../../server/modules/digital-human/job-kinds';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { createHttpProvider } from '../../server/integrations/digital-human/http';
import { addMedia, cloneFixture, waitImageClone, waitVoiceClone } from './dh-clone-fixtures';
import { startFakeVendor, type FakeVendor } from './fake-dh-vendor';
import { api, createTestApp, engines, type Reply, type TestApp } from './helpers';

/**
 * The clone jobs with the HTTP vendor adapter against the fake vendor (a real HTTP server speaking
 * docs/digital-human-vendor.md): the vendor fetches our signed file URLs (absolute, PUBLIC_URL),
 * queues, reports progress and finishes; a permanent vendor failure fails the clone at once and
 * refunds it; a transient one is retried, then failed and refunded. Exactly one freeze and one
 * settle or refund each; the ledger reconciles.
 */
const EN = { lang: 'en-US' };
const PUBLIC_URL = 'http://console.test';

vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  for (const name of ['take.mp4', 'consent.mp4', 'sample.mp3'] as const) await cloneFixture(name);
});

describe.each(engines)('clone jobs with the HTTP vendor on %s', (engine: Engine) => {
  let t: TestApp;
  let vendor: FakeVendor;
  let token: string;
  let merchantId: number;
  const fetched: string[] = [];

  beforeEach(async () => {
    fetched.length = 0;
    vendor = await startFakeVendor({
      stepMs: 20,
      // The app does not listen: the vendor's downloads of our signed URLs go through inject.
      fetchInput: async (url) => {
        fetched.push(url);
        if (!url.startsWith(`${PUBLIC_URL}/`)) return { status: 404, body: Buffer.alloc(0) };
        const response = await t.app.inject({ method: 'GET', url: url.slice(PUBLIC_URL.length) });
        return { status: response.statusCode, body: response.rawPayload };
      },
      // Callbacks are not needed: the adapter polls (the callback route is the videos' part).
      deliverCallback: async () => 204,
    });
    const digitalHuman = createHttpProvider({
      baseUrl: vendor.url,
      apiKey: vendor.apiKey,
      callbackSecret: vendor.callbackSecret,
      callbackUrl: `${PUBLIC_URL}/api/v1/digital_human/vendor_callback`,
      pollIntervalMs: 20,
      maxPollMs: 100,
    });
    t = await createTestApp(engine, {
      integrations: { digitalHuman },
      config: { publicUrl: PUBLIC_URL },
      jobs: { timing: { pollMs: 20 } },
    });
    merchantId = Number((await t.user('merchant')).id);
    token = await t.login('merchant');
  });
  afterEach(async () => {
    await t.close();
    await vendor.stop();
  });

  const post = <T>(url: string, body: unknown): Promise<Reply<T>> =>
    t.call<T>('POST', api(url), { token, body, headers: EN });
  const balances = async () => {
    const user = await t.user('merchant');
    return { image: Number(user.image_clone_count), voice: Number(user.voice_clone_count) };
  };
  async function addBoth() {
    const video = await addMedia(t, merchantId, 'take.mp4');
    const consent = await addMedia(t, merchantId, 'consent.mp4');
    const sample = await addMedia(t, merchantId, 'sample.mp3');
    const image = await post<DhAddReply>('/digital_human/image_clone_add', {
      name: 'Host',
      video_id: video,
      consent_video_id: consent,
      tier: 'advanced',
    });
    expect(image.body.code, image.raw).toBe(1);
    const voice = await post<DhAddReply>('/digital_human/voice_clone_add', {
      name: 'Host voice',
      gender: 'male',
      audio_id: sample,
    });
    expect(voice.body.code, voice.raw).toBe(1);
    return { image: image.body.data.id, voice: voice.body.data.id };
  }
  const rowOf = (table: 'dh_image_clones' | 'dh_voice_clones', id: number) =>
    t.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('trains both clones at the vendor from our signed URLs and settles each once', async () => {
    const before = await balances();
    const ids = await addBoth();
    startAppWorker(t.app.ctx, { everyMs: 200 });
    const image = await waitImageClone(t, token, ids.image);
    expect(image, JSON.stringify(image)).toMatchObject({
      status: 'ready',
      demonstration: false,
      cost: 1,
      refunded: 0,
    });
    expect(image.cover).toMatch(/\/files\//);
    const voice = await waitVoiceClone(t, token, ids.voice);
    expect(voice, JSON.stringify(voice)).toMatchObject({ status: 'ready', demonstration: false });
    expect(voice.demo_url).toMatch(/\/files\//);
    const imageRow = await rowOf('dh_image_clones', ids.image);
    expect([imageRow.provider, imageRow.billing]).toEqual(['http', 'settled']);
    expect(imageRow.vendor_job_id).toBeTruthy();
    expect(imageRow.vendor_ref).toBeTruthy();
    const voiceRow = await rowOf('dh_voice_clones', ids.voice);
    expect(voiceRow.vendor_job_id).toBeTruthy();
    expect(JSON.parse(voiceRow.profile!)).toBeTruthy();
    // Absolute signed URLs of our files reached the vendor.
    expect(fetched.length).toBeGreaterThanOrEqual(2);
    expect(fetched.every((url) => url.startsWith(`${PUBLIC_URL}/api/v1/files/`))).toBe(true);
    expect(vendor.submitted()).toBe(3); // image clone, voice clone, the voice's demo speech
    expect(await balances()).toEqual({ image: before.image - 1, voice: before.voice - 1 });
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('fails a clone the vendor fails permanently at once, refunded once', async () => {
    vendor.failJobs({ permanent: true, type: 'image_clone', message: 'No face found' });
    const before = await balances();
    const ids = await addBoth();
    startAppWorker(t.app.ctx, { everyMs: 200 });
    const image = await waitImageClone(t, token, ids.image);
    expect(image).toMatchObject({ status: 'failed', cost: 1, refunded: 1, cover: null });
    expect(image.reason).toContain('No face found');
    const row = await rowOf('dh_image_clones', ids.image);
    expect(Number(row.attempts)).toBe(1);
    const voice = await waitVoiceClone(t, token, ids.voice);
    expect(voice.status).toBe('ready');
    expect(await balances()).toEqual({ image: before.image, voice: before.voice - 1 });
    const refunds = await t.db
      .selectFrom('ledger')
      .select('change')
      .where('related_type', '=', 'dh_image_clone')
      .where('type', '=', 'task_refund')
      .execute();
    expect(refunds.map((r) => Number(r.change))).toEqual([1]);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('retries a clone the vendor keeps failing transiently, then fails and refunds it', async () => {
    vendor.failJobs({ permanent: false, type: 'voice_clone' });
    const before = await balances();
    const ids = await addBoth();
    startAppWorker(t.app.ctx, { everyMs: 200 });
    const voice = await waitVoiceClone(t, token, ids.voice, 90_000);
    expect(voice).toMatchObject({ status: 'failed', cost: 1, refunded: 1 });
    const row = await rowOf('dh_voice_clones', ids.voice);
    expect(Number(row.attempts)).toBe(DH_ATTEMPTS);
    expect((await waitImageClone(t, token, ids.image)).status).toBe('ready');
    expect(await balances()).toEqual({ image: before.image - 1, voice: before.voice });
    expect(await reconcile(t.db)).toEqual([]);
  });
});
