import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DhTemplateAddReply, DhTemplateList } from '../../src/api/contract/dh-templates';
import type { DhAddReply } from '../../src/api/contract/digital-human';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { sweepResourceFiles } from '../../server/modules/resources/sweep-files';
import { api, createTestApp, type TestApp } from './helpers';
import { fixtureApp, putThings, videoBody, waitVideo } from './dh-video-fixtures';
import { putResource } from './resource-fixtures';

const run = promisify(execFile);

/**
 * The render honours a template's background picture and music (docs/domain.md §10 "Video
 * templates"), as the video kept them at submit: two tiny videos (the embedded provider, SQLite,
 * the embedded queue), one with an own template whose background is a red picture and whose
 * music is a 7 kHz tone, one with the built-in landscape template (its colour, no music); the
 * template and both files are deleted (and the library swept) before the worker renders. Read
 * back: a pixel beside the presenter, and the sound's loudness around 7 kHz.
 */
const EN = { lang: 'en-US' };
const MUSIC_HZ = 7000;
vi.setConfig({ testTimeout: 120_000 });

/** The colour of one pixel of the frame at 0.5 s (RGB). */
async function pixel(file: string, x: number, y: number): Promise<number[]> {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-v', 'error', '-ss', '0.5', '-i', file, '-frames:v', '1'],
      ...['-vf', `format=rgb24,crop=1:1:${x}:${y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    ],
    { encoding: 'buffer' },
  );
  return [...stdout];
}

/** Mean loudness (dB) of the sound in a narrow band around `hz`. */
async function bandVolume(file: string, hz: number): Promise<number> {
  const band = `bandpass=f=${hz}:width_type=q:w=8`;
  const { stderr } = await run('ffmpeg', [
    ...['-v', 'info', '-nostats', '-i', file],
    ...['-vn', '-af', `${band},${band},volumedetect`, '-f', 'null', '-'],
  ]);
  const match = /mean_volume: (-?[\d.]+) dB/.exec(stderr);
  return match ? Number(match[1]) : -100;
}

describe('a video made with a template', () => {
  let t: TestApp;
  let token: string;
  let dir: string;

  beforeEach(async () => {
    t = await createTestApp('sqlite', {
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
    token = await t.login('merchant');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-dh-template-'));
  });
  afterEach(async () => {
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const post = <T>(url: string, body: unknown) =>
    t.call<T>('POST', api(url), { token, body, headers: EN });

  it('shows the template’s background picture beside the presenter and mixes its music in', async () => {
    const merchantId = (await t.user('merchant')).id;
    const things = await putThings(fixtureApp(t), merchantId, { real: true });
    const red = path.join(dir, 'red.png');
    const tone = path.join(dir, 'tone.wav');
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:size=64x64', '-frames:v', '1', red],
    ]);
    await run('ffmpeg', [
      ...[
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${MUSIC_HZ}:duration=6,volume=6`,
        tone,
      ],
    ]);
    const picture = await putResource(t, merchantId, {
      type: 'image',
      bytes: await fs.readFile(red),
      contentType: 'image/png',
    });
    const music = await putResource(t, merchantId, {
      type: 'bgm',
      bytes: await fs.readFile(tone),
      contentType: 'audio/wav',
    });
    const layout = {
      avatar: { x: 0.6, y: 0.05, width: 0.35, height: 0.95 },
      subtitle: { y: 0.85, size: 0.045, color: '#FFFFFF' },
      background: '#0000FF',
    };
    const template = await post<DhTemplateAddReply>('/digital_human/template_add', {
      name: 'Red room',
      ratio: '16:9',
      layout,
      background_image_id: picture.id,
      music_id: music.id,
    });
    expect(template.body.code, template.raw).toBe(1);
    const templates = await t.call<DhTemplateList>('GET', api('/digital_human/template_list'), {
      token,
      headers: EN,
    });
    const landscape = templates.body.data.list.find((x) => x.name === 'Landscape 16:9')!;
    const ids: number[] = [];
    for (const templateId of [template.body.data.id, landscape.id]) {
      const reply = await post<DhAddReply>(
        '/digital_human/video_add',
        videoBody(things, { text: 'Hi there.', subtitles: false, template_id: templateId }),
      );
      expect(reply.body.code, reply.raw).toBe(1);
      ids.push(reply.body.data.id);
    }
    // Gone before the render: the video renders with what it kept (and holds).
    const gone = await post('/digital_human/template_delete', { ids: [template.body.data.id] });
    expect(gone.body.code, gone.raw).toBe(1);
    const binned = await post('/resource/delete', { ids: [picture.id, music.id] });
    expect(binned.body.code, binned.raw).toBe(1);
    await sweepResourceFiles(t.app.ctx);

    startAppWorker(t.app.ctx, { everyMs: 200 }); // closed by t.close()
    const files: string[] = [];
    for (const id of ids) {
      const video = await waitVideo(t, token, id);
      expect(video.status, JSON.stringify(video)).toBe('done');
      expect([video.width, video.height]).toEqual([1280, 720]);
      const row = await t.db
        .selectFrom('dh_videos')
        .select('storage_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      files.push(t.app.ctx.storage.localFiles!.path(row.storage_key!));
    }
    const [withTemplate, plain] = files as [string, string];
    // Beside the presenter (top left): the red picture, not the layout's blue; the built-in
    // template shows its own colour (#1F3A5F).
    const [r, g, b] = await pixel(withTemplate, 40, 40);
    expect(r, 'red').toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    expect(b).toBeLessThan(60);
    const [r2, g2, b2] = await pixel(plain, 40, 40);
    expect(Math.abs(r2 - 0x1f)).toBeLessThan(20);
    expect(Math.abs(g2 - 0x3a)).toBeLessThan(20);
    expect(Math.abs(b2 - 0x5f)).toBeLessThan(20);
    // The template's music is under the speech; without it that band is almost silent.
    const musicBand = await bandVolume(withTemplate, MUSIC_HZ);
    const speechOnly = await bandVolume(plain, MUSIC_HZ);
    expect(musicBand - speechOnly, `${musicBand} vs ${speechOnly} dB`).toBeGreaterThan(15);
    expect(await reconcile(t.db)).toEqual([]);
  });
});
