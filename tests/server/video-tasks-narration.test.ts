import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VideoTaskAddReply, VideoTaskEstimate } from '../../src/api/contract/video-tasks';
import { estimateSpeechSeconds } from '../../src/api/contract/digital-human';
import type { Engine } from '../../server/platform/db/dialect';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { SENTENCE_PAUSE } from '../../server/modules/video-tasks/narration';
import { api, createTestApp, engines, type Reply, type TestApp } from './helpers';
import { fixtureApp, putVoice } from './dh-video-fixtures';
import { putResource } from './resource-fixtures';
import { ffprobe, waitFinished } from './video-task-fixtures';

/**
 * Narration of video tasks (docs/domain.md §9 "Narration"), rendered for real on each engine:
 * the speech is heard where its sentences are, the subtitles show each sentence while it is
 * spoken (read back from the output's pixels), the speech is made once per task, and the
 * `digital_man` seconds are settled on its real length or returned.
 */
const run = promisify(execFile);
const EN = { lang: 'en-US' };
const SCRIPT = 'Hello there friends. Good morning to you.';

vi.setConfig({ testTimeout: 120_000 });

/** A 3 s black 1280×720 video without sound (subtitles show plainly on it). */
async function blackVideo(): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'narration-src-'));
  const file = path.join(dir, 'black.mp4');
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'color=c=black:size=1280x720:rate=25:d=3'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file],
  ]);
  const bytes = await fs.readFile(file);
  await fs.rm(dir, { recursive: true, force: true });
  return bytes;
}

/** Mean loudness (dB) of the file's sound between two times. */
async function meanVolume(file: string, from: number, to: number): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    ...['-v', 'info', '-nostats', '-ss', String(from), '-t', String(to - from), '-i', file],
    ...['-vn', '-af', 'volumedetect', '-f', 'null', '-'],
  ]);
  const match = /mean_volume: (-?[\d.]+|-inf) dB/.exec(stderr);
  return match?.[1] === '-inf' || !match ? -100 : Number(match[1]);
}

/**
 * The times (seconds, per frame at 25 fps) at which the band of rows y0–y1 of a 1280×720 output
 * shows text (a bright pixel).
 */
async function textFrames(file: string, y0: number, y1: number): Promise<boolean[]> {
  const w = 320;
  const h = Math.round((y1 - y0) / 4);
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-v', 'error', '-i', file, '-an', '-vf', `crop=1280:${y1 - y0}:0:${y0},scale=${w}:${h}`],
      ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 1 << 26 },
  );
  const size = w * h;
  const frames: boolean[] = [];
  for (let at = 0; at + size <= stdout.length; at += size) {
    frames.push(stdout.subarray(at, at + size).some((v) => v > 150));
  }
  return frames;
}

/** The gaps (frames without text) between runs of frames with text, as [start, end] seconds. */
function gaps(frames: readonly boolean[], fps = 25): [number, number][] {
  const found: [number, number][] = [];
  const first = frames.indexOf(true);
  const last = frames.lastIndexOf(true);
  let start: number | null = null;
  for (let i = first; i <= last; i += 1) {
    if (!frames[i] && start === null) start = i;
    if (frames[i] && start !== null) {
      found.push([start / fps, i / fps]);
      start = null;
    }
  }
  return found;
}

describe.each(engines)('narration on %s', (engine: Engine) => {
  let t: TestApp;
  let token: string;
  let merchantId: number;
  let voiceId: number;
  let videoId: number;

  beforeEach(async () => {
    t = await createTestApp(engine, {
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
    merchantId = (await t.user('merchant')).id;
    token = await t.login('merchant');
    voiceId = await putVoice(fixtureApp(t), null);
    videoId = (
      await putResource(t, merchantId, {
        type: 'video',
        name: 'black',
        bytes: await blackVideo(),
        durationMs: 3000,
      })
    ).id;
  });
  afterEach(async () => {
    await t.close();
  });

  const post = <T>(url: string, body: unknown): Promise<Reply<T>> =>
    t.call<T>('POST', api(url), { token, body, headers: EN });
  const seconds = async () => Number((await t.user('merchant')).digital_man_seconds);
  const money = async () => Number((await t.user('merchant')).money);
  const clipBody = (extra: Record<string, unknown> = {}) => ({
    kind: 'clip',
    name: 'Narrated',
    ratio: '16:9',
    resolution: '720p',
    fps: 25,
    bitrate: 800,
    music_volume: 5,
    keep_original_sound: false,
    resource_id: videoId,
    trim: { start: 0, end: 3 },
    ...extra,
  });
  const narration = (extra: Record<string, unknown> = {}) => ({
    text: SCRIPT,
    voice_id: voiceId,
    speed: 1.6,
    volume: 1,
    ...extra,
  });
  const taskRow = (id: number) =>
    t.db.selectFrom('video_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  async function outputFile(outputId: number): Promise<string> {
    const row = await t.db
      .selectFrom('video_outputs')
      .select('storage_key')
      .where('id', '=', outputId)
      .executeTakeFirstOrThrow();
    return t.app.ctx.storage.localFiles!.path(row.storage_key!);
  }

  it('speaks the script once per task, shows each sentence while it is spoken, bills its real seconds', async () => {
    const synthesize = vi.spyOn(t.app.ctx.integrations.digitalHuman, 'synthesize');
    const body = clipBody({
      narration: narration(),
      subtitles: { position: 'middle', size: 40, color: '#FFFFFF' },
    });
    const estimate = await post<VideoTaskEstimate>('/video_task/estimate', body);
    expect(estimate.body.code, estimate.raw).toBe(1);
    const estimated = estimateSpeechSeconds(SCRIPT, 1.6);
    expect(estimate.body.data.narration).toEqual({
      seconds: estimated,
      cost: estimated,
      balance: 7200,
    });
    const reply = await post<VideoTaskAddReply>('/video_task/add', body);
    expect(reply.body.code, reply.raw).toBe(1);
    const id = reply.body.data.id;
    expect(await seconds()).toBe(7200 - estimated);
    startAppWorker(t.app.ctx, { everyMs: 200 });
    const task = await waitFinished(t, token, id);
    expect(task.status, JSON.stringify(task.outputs)).toBe('done');
    // One synthesis per sentence, once for the task.
    expect(synthesize).toHaveBeenCalledTimes(2);
    const row = await taskRow(id);
    const lines = JSON.parse(row.narration_lines!) as { start: number; end: number }[];
    expect(lines).toHaveLength(2);
    expect(lines[0]!.start).toBe(0);
    expect(lines[1]!.start).toBeCloseTo(lines[0]!.end + SENTENCE_PAUSE, 3);
    const speechEnd = lines[1]!.end;
    expect(speechEnd).toBeLessThan(2.6);

    const file = await outputFile(task.outputs[0]!.id);
    const probed = await ffprobe(file);
    expect([probed.width, probed.height]).toEqual([1280, 720]);
    // The speech is heard in each sentence's time, and silence after it (no other sound).
    const spoken = await meanVolume(file, lines[0]!.start + 0.1, lines[0]!.end - 0.05);
    const after = await meanVolume(file, speechEnd + 0.1, 2.9);
    expect(spoken, `speech ${spoken} dB, after ${after} dB`).toBeGreaterThan(-35);
    expect(spoken - after).toBeGreaterThan(30);
    // The subtitles in the middle band: each sentence shown while it is spoken (the pause
    // between them, and the end of the speech, within 0.2 s of the sentence times).
    const frames = await textFrames(file, 260, 460);
    const shown = gaps(frames);
    expect(shown, JSON.stringify(frames)).toHaveLength(1);
    expect(Math.abs(shown[0]![0] - lines[0]!.end)).toBeLessThanOrEqual(0.2);
    expect(Math.abs(shown[0]![1] - lines[1]!.start)).toBeLessThanOrEqual(0.2);
    const lastShown = (frames.lastIndexOf(true) + 1) / 25;
    expect(Math.abs(lastShown - speechEnd)).toBeLessThanOrEqual(0.2);
    // Nothing at the bottom (the position asked is the middle).
    expect((await textFrames(file, 560, 700)).some(Boolean)).toBe(false);

    // Billed: the real whole seconds, the rest of the estimate returned; money as before.
    const used = Math.ceil(Number(row.narration_ms) / 1000 - 1e-6);
    expect(await seconds()).toBe(7200 - used);
    expect(await reconcile(t.db)).toEqual([]);
    const holds = await t.db
      .selectFrom('ledger_holds')
      .selectAll()
      .where('related_type', '=', 'video_task')
      .where('related_id', '=', id)
      .where('asset', '=', 'digital_man')
      .execute();
    expect(holds).toHaveLength(1);
    expect(holds[0]!.closed_at).not.toBeNull();
  });

  it('keeps the times of imported subtitle lines, and mixes the speech over ducked music in a mixed task', async () => {
    const song = await putResource(t, merchantId, {
      type: 'bgm',
      name: 'tone',
      bytes: await fs.readFile(await (await import('./media-fixtures')).fixture('tone.mp3')),
      durationMs: 1500,
    });
    const synthesize = vi.spyOn(t.app.ctx.integrations.digitalHuman, 'synthesize');
    const reply = await post<VideoTaskAddReply>('/video_task/add', {
      ...clipBody(),
      kind: 'mixed',
      mode: 'sequential',
      count: 1,
      trim: undefined,
      resource_id: undefined,
      shot_groups: [
        { resource_ids: [videoId], duration: 1.5 },
        { resource_ids: [videoId], duration: 1.5 },
      ],
      music_ids: [song.id],
      narration: narration({ text: 'Hello there friends.' }),
      subtitles: {
        position: 'middle',
        lines: [
          { start: 0.4, end: 1.2, text: 'First line' },
          { start: 1.8, end: 2.5, text: 'Second line' },
        ],
      },
    });
    expect(reply.body.code, reply.raw).toBe(1);
    startAppWorker(t.app.ctx, { everyMs: 200 });
    const task = await waitFinished(t, token, reply.body.data.id);
    expect(task.status, JSON.stringify(task.outputs)).toBe('done');
    expect(synthesize).toHaveBeenCalledTimes(1);
    const file = await outputFile(task.outputs[0]!.id);
    const frames = await textFrames(file, 260, 460);
    const first = frames.indexOf(true) / 25;
    const last = (frames.lastIndexOf(true) + 1) / 25;
    expect(Math.abs(first - 0.4), `first ${first}`).toBeLessThanOrEqual(0.2);
    expect(Math.abs(last - 2.5), `last ${last}`).toBeLessThanOrEqual(0.2);
    const [gap] = gaps(frames);
    expect(Math.abs(gap![0] - 1.2)).toBeLessThanOrEqual(0.2);
    expect(Math.abs(gap![1] - 1.8)).toBeLessThanOrEqual(0.2);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('returns the narration seconds (and the money) of a task that makes nothing; refuses a voice not ready', async () => {
    const before = { seconds: await seconds(), money: await money() };
    const reply = await post<VideoTaskAddReply>(
      '/video_task/add',
      clipBody({ narration: narration() }),
    );
    expect(reply.body.code, reply.raw).toBe(1);
    expect(await seconds()).toBeLessThan(before.seconds);
    const cancel = await post('/video_task/cancel', { id: reply.body.data.id });
    expect(cancel.body.code, cancel.raw).toBe(1);
    expect(await seconds()).toBe(before.seconds);
    expect(await money()).toBe(before.money);
    expect(await reconcile(t.db)).toEqual([]);

    const training = await putVoice(fixtureApp(t), merchantId, { status: 'training' });
    const refused = await post(
      '/video_task/add',
      clipBody({ narration: narration({ voice_id: training }) }),
    );
    expect(refused.body.code).toBe(0);
    expect(refused.body.msg).toBe(`Voice ${training} was not found or is not ready`);
    const empty = await post('/video_task/estimate', clipBody({ subtitles: { size: 30 } }));
    expect(empty.body.msg).toBe('Subtitles need a text, timed lines or a narration');
  });
});
