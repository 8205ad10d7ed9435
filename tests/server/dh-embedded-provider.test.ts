import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplateLayout } from '../../src/api/contract/dh-templates';
import { createEmbeddedProvider } from '../../server/integrations/digital-human/embedded';
import { estimateF0 } from '../../server/integrations/digital-human/embedded/analysis';
import { decodePcm, parseWav } from '../../server/integrations/digital-human/embedded/pcm';
import { readProfile } from '../../server/integrations/digital-human/embedded/voices';
import {
  buildVideoGraph,
  mouthCommands,
  mouthLevels,
} from '../../server/integrations/digital-human/embedded/video';
import {
  ProviderError,
  type ProviderRun,
  type VoiceProfile,
} from '../../server/integrations/digital-human/types';

/**
 * The embedded digital-human provider on real media: espeak-ng speech, voice profiles
 * fitted to generated samples, image clones cut from a generated video, and short renders read
 * back with ffprobe and as pixels. Inputs are made here with ffmpeg and espeak-ng.
 * A 30 s render's speed is checked only with DH_BENCH=1 (it takes half a minute).
 */
const exec = promisify(execFile);
const provider = createEmbeddedProvider({ preset: 'ultrafast' });

let dir: string;
let runs = 0;
/** A fresh work dir per call, as the callers make them. */
async function newRun(extra: Partial<ProviderRun> = {}): Promise<ProviderRun> {
  runs += 1;
  const workDir = path.join(dir, `run-${runs}`);
  await fs.mkdir(workDir);
  return { workDir, ...extra };
}

const ffmpeg = (...args: string[]) =>
  exec('nice', ['-n', '5', 'ffmpeg', '-nostdin', '-v', 'error', '-y', ...args], {
    maxBuffer: 1 << 26,
  });

interface Probe {
  streams: {
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    duration?: string;
  }[];
  format: { duration: string; format_name: string };
}
async function probe(file: string): Promise<Probe> {
  const { stdout } = await exec('ffprobe', [
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
  ]);
  return JSON.parse(stdout) as Probe;
}

const voice = (key: string): VoiceProfile =>
  provider.publicVoices().find((v) => v.key === key)!.profile;

const portrait: TemplateLayout = {
  avatar: { x: 0, y: 0, width: 1, height: 1 },
  subtitle: { y: 0.82, size: 0.045, color: '#FFFFFF' },
  background: '#000000',
};
const landscape: TemplateLayout = {
  avatar: { x: 0.6, y: 0.05, width: 0.35, height: 0.95 },
  subtitle: { y: 0.85, size: 0.045, color: '#FFFFFF' },
  background: '#1F3A5F',
};

let tallVideo: string; // 540×960, 5 s
let wideVideo: string; // 640×360, 5 s
let greyLoop: string; // a plain grey 360×640 loop (the mouth shows on it)
let music: string;
let garbage: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dh-embedded-'));
  tallVideo = path.join(dir, 'tall.mp4');
  wideVideo = path.join(dir, 'wide.mp4');
  greyLoop = path.join(dir, 'grey.mp4');
  music = path.join(dir, 'music.mp3');
  garbage = path.join(dir, 'garbage.mp4');
  const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  // Small sources keep the clones quick (the loop is at most 720 on its short side).
  await Promise.all([
    ffmpeg('-f', 'lavfi', '-i', 'testsrc2=size=540x960:rate=25', '-t', '5', ...h264, tallVideo),
    ffmpeg('-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', '5', ...h264, wideVideo),
    ffmpeg(
      '-f',
      'lavfi',
      '-i',
      'color=c=0x808080:size=360x640:rate=25',
      '-t',
      '2',
      ...h264,
      greyLoop,
    ),
    ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:a', 'libmp3lame', music),
    fs.writeFile(garbage, Buffer.from('this is not a video at all '.repeat(100))),
  ]);
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function expectPermanent(promise: Promise<unknown>, reasonId: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).permanent).toBe(true);
  expect((error as ProviderError).reasonId).toBe(reasonId);
}

describe('public voices', () => {
  it('has Mandarin and English, female and male, named in both languages', async () => {
    const voices = provider.publicVoices();
    expect(voices.map((v) => v.key).sort()).toEqual([
      'embedded:en-female',
      'embedded:en-male',
      'embedded:zh-female',
      'embedded:zh-male',
    ]);
    for (const v of voices) {
      expect(v.name['zh-CN']).toBeTruthy();
      expect(v.name['en-US']).toBeTruthy();
      const profile = v.profile as { voices: { zh: string; en: string }; pitch: number };
      expect(profile.voices.zh).toMatch(/^cmn-latn-pinyin\+[fm]3$/);
      expect(profile.voices.en).toMatch(/^en-us\+[fm]3$/);
      expect(profile.voices.zh.endsWith(v.gender === 'female' ? '+f3' : '+m3')).toBe(true);
    }
    expect(provider.demonstration).toBe(true);
    await expect(provider.parseCallback('{}', {})).resolves.toBeNull();
  });
});

describe('stored profiles', () => {
  it('only ever hands espeak-ng a known voice, a pitch 0–99 and a rate 80–450', () => {
    expect(
      readProfile({ voices: { zh: '--help', en: 'en-us+m3' }, pitch: 500, rate: 5 }, 'zh'),
    ).toEqual({ voice: 'cmn-latn-pinyin+f3', pitch: 99, rate: 80 });
    expect(readProfile({ voices: { en: 'cmn-latn-pinyin+m3' }, pitch: 'x' }, 'en')).toEqual({
      voice: 'en-us+f3',
      pitch: 50,
      rate: 175,
    });
    expect(readProfile({ voices: { en: 'en-us+m3' }, pitch: 12.4, rate: 200 }, 'en')).toEqual({
      voice: 'en-us+m3',
      pitch: 12,
      rate: 200,
    });
  });
});

describe('speech', () => {
  it('speaks Mandarin and English into a WAV of exactly the length it reports', async () => {
    for (const [language, text, key] of [
      ['zh', '大家好，欢迎来到直播间。今天介绍一款新产品！', 'embedded:zh-female'],
      ['en', 'Hello and welcome. Today we show you something new!', 'embedded:en-male'],
    ] as const) {
      const progress: number[] = [];
      const result = await provider.synthesize(
        { text, language, voice: voice(key), speed: 1, volume: 1 },
        await newRun({ onProgress: (p) => progress.push(p.progress ?? -1) }),
      );
      const facts = await probe(result.audioPath);
      expect(facts.streams[0]).toMatchObject({ codec_type: 'audio', codec_name: 'pcm_s16le' });
      expect(Math.abs(Number(facts.format.duration) - result.duration)).toBeLessThan(0.01);
      expect(result.duration).toBeGreaterThan(2);
      expect(progress.at(-1)).toBe(1);
    }
  });

  it('gives byte-identical files for the same request, different ones otherwise', async () => {
    const request = {
      text: '同样的文字，同样的声音。Same words.',
      language: 'zh' as const,
      voice: voice('embedded:zh-male'),
      speed: 1.2,
      volume: 0.8,
    };
    const a = await provider.synthesize(request, await newRun());
    const b = await provider.synthesize(request, await newRun());
    const c = await provider.synthesize({ ...request, speed: 1 }, await newRun());
    const [bytesA, bytesB, bytesC] = await Promise.all(
      [a, b, c].map((r) => fs.readFile(r.audioPath)),
    );
    expect(bytesA.equals(bytesB)).toBe(true);
    expect(bytesA.equals(bytesC)).toBe(false);
    // Faster speech is shorter.
    expect(a.duration).toBeLessThan(c.duration * 0.95);
  });

  it('scales the loudness by the volume', async () => {
    const base = {
      text: 'Volume check, one two three.',
      language: 'en' as const,
      voice: voice('embedded:en-female'),
      speed: 1,
    };
    const peak = async (volume: number) => {
      const r = await provider.synthesize({ ...base, volume }, await newRun());
      const wav = parseWav(await fs.readFile(r.audioPath))!;
      return wav.raw.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    };
    const [half, full, silent] = [await peak(0.5), await peak(1), await peak(0)];
    expect(full).toBeGreaterThan(1000);
    expect(Math.abs(half - full / 2)).toBeLessThanOrEqual(1);
    expect(silent).toBe(0);
  });

  it('reads 5000 characters and hostile text as words (text through a file)', async () => {
    const long = 'Today we introduce a new product that helps you work faster. '.repeat(90);
    const result = await provider.synthesize(
      {
        text: long.slice(0, 5000),
        language: 'en',
        voice: voice('embedded:en-male'),
        speed: 2,
        volume: 1,
      },
      await newRun(),
    );
    expect(result.duration).toBeGreaterThan(60);
    const hostile =
      '--help -w /etc/passwd $(touch /tmp/x) `id` [[h@l"oU]] <speak>hi</speak> \u0000\u001b[31m';
    const run = await newRun();
    const speech = await provider.synthesize(
      { text: hostile, language: 'en', voice: voice('embedded:en-female'), speed: 1, volume: 1 },
      run,
    );
    expect(speech.duration).toBeGreaterThan(1);
    // Only the speech is left in the work dir.
    expect(await fs.readdir(run.workDir)).toEqual([path.basename(speech.audioPath)]);
  });

  it('stops espeak-ng when aborted', async () => {
    const controller = new AbortController();
    const promise = provider.synthesize(
      {
        text: '这是一段很长的文字。'.repeat(500),
        language: 'zh',
        voice: voice('embedded:zh-female'),
        speed: 1,
        volume: 1,
      },
      await newRun({ signal: controller.signal }),
    );
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(promise).rejects.toThrow('stop');
  });
});

describe('voice clone', () => {
  /** ≈ 12 s of espeak-ng speech at a pitch and rate, as an MP3 (a decoded, lossy sample). */
  async function spokenSample(name: string, pitch: number, rate: number, variant = 'm3') {
    const text = path.join(dir, `${name}.txt`);
    await fs.writeFile(
      text,
      '今天我们来介绍一款新的产品，它可以帮助你更快地完成工作。我们的团队一直在努力改进它，希望大家喜欢。'.repeat(
        2,
      ),
    );
    const wav = path.join(dir, `${name}.wav`);
    await exec('espeak-ng', [
      ...['-v', `cmn-latn-pinyin+${variant}`, '-p', String(pitch), '-s', String(rate)],
      ...['-w', wav, '-f', text],
    ]);
    const mp3 = path.join(dir, `${name}.mp3`);
    await ffmpeg('-i', wav, '-c:a', 'libmp3lame', '-b:a', '64k', mp3);
    return mp3;
  }

  it('fits pitch and rate by measuring the sample', async () => {
    const [low, high, fast] = await Promise.all([
      spokenSample('low', 20, 150),
      spokenSample('high', 80, 150),
      spokenSample('fast', 20, 260),
    ]);
    const fit = async (file: string) =>
      (await provider.cloneVoice({ audio: { path: file }, gender: 'male' }, await newRun()))
        .profile as {
        engine: string;
        voices: { zh: string; en: string };
        pitch: number;
        rate: number;
        measured: { f0Hz: number; syllablesPerSecond: number };
      };
    const [pLow, pHigh, pFast] = [await fit(low), await fit(high), await fit(fast)];
    expect(pLow).toMatchObject({
      engine: 'espeak-ng',
      voices: { zh: 'cmn-latn-pinyin+m3', en: 'en-us+m3' },
    });
    // A higher voice → a higher pitch; each near the pitch it was spoken at.
    expect(pHigh.measured.f0Hz).toBeGreaterThan(pLow.measured.f0Hz * 1.3);
    expect(pHigh.pitch).toBeGreaterThan(pLow.pitch + 30);
    expect(Math.abs(pLow.pitch - 20)).toBeLessThanOrEqual(15);
    expect(Math.abs(pHigh.pitch - 80)).toBeLessThanOrEqual(15);
    // Faster speech → a higher rate.
    expect(pFast.measured.syllablesPerSecond).toBeGreaterThan(pLow.measured.syllablesPerSecond);
    expect(pFast.rate).toBeGreaterThan(pLow.rate + 50);
  });

  it('measures the pitch of a plain tone and keeps the gender’s voices', async () => {
    const tone = async (frequency: number) => {
      const file = path.join(dir, `tone-${frequency}.wav`);
      // 12 s of a tone pulsing 4 times a second (syllable-like).
      await ffmpeg(
        ...['-f', 'lavfi', '-i', `sine=frequency=${frequency}:duration=12`],
        ...['-af', "volume='0.2+0.8*abs(sin(2*PI*2*t))':eval=frame", file],
      );
      return file;
    };
    const [a, b] = await Promise.all([tone(160), tone(260)]);
    const pcm = await decodePcm(a, dir, { sampleRate: 16000 });
    expect(estimateF0(pcm)!.f0).toBeCloseTo(160, -1);
    const fitA = (
      await provider.cloneVoice({ audio: { path: a }, gender: 'female' }, await newRun())
    ).profile as { pitch: number; voices: { zh: string } };
    const fitB = (
      await provider.cloneVoice({ audio: { path: b }, gender: 'female' }, await newRun())
    ).profile as { pitch: number };
    expect(fitA.voices.zh).toBe('cmn-latn-pinyin+f3');
    expect(fitB.pitch).toBeGreaterThan(fitA.pitch);
  });

  it('fails permanently on an unreadable or silent sample', async () => {
    const silent = path.join(dir, 'silent.wav');
    await ffmpeg('-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '12', silent);
    await expectPermanent(
      provider.cloneVoice({ audio: { path: garbage }, gender: 'female' }, await newRun()),
      'digitalHuman.reason.inputUnreadable',
    );
    await expectPermanent(
      provider.cloneVoice(
        { audio: { path: path.join(dir, 'missing.mp3') }, gender: 'female' },
        await newRun(),
      ),
      'digitalHuman.reason.inputUnreadable',
    );
    await expectPermanent(
      provider.cloneVoice({ audio: { path: silent }, gender: 'female' }, await newRun()),
      'digitalHuman.reason.noSpeech',
    );
  });
});

describe('image clone', () => {
  it('cuts a poster and a short silent H.264 loop, longer and finer for the advanced tier', async () => {
    const standard = await provider.cloneImage(
      { video: { path: tallVideo }, tier: 'standard' },
      await newRun(),
    );
    expect(standard).toMatchObject({ width: 540, height: 960, vendorRef: null });
    const loop = await probe(standard.loopPath);
    expect(loop.streams.map((s) => s.codec_type)).toEqual(['video']);
    expect(loop.streams[0]).toMatchObject({ codec_name: 'h264', width: 540, height: 960 });
    expect(Number(loop.format.duration)).toBeCloseTo(3, 0);
    const poster = await probe(standard.posterPath);
    expect(poster.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 540, height: 960 });

    const advanced = await provider.cloneImage(
      { video: { path: wideVideo }, tier: 'advanced' },
      await newRun(),
    );
    expect(advanced).toMatchObject({ width: 640, height: 360 });
    expect(Number((await probe(advanced.loopPath)).format.duration)).toBeCloseTo(4, 0);
  });

  it('fails permanently on a file that is not a video', async () => {
    await expectPermanent(
      provider.cloneImage({ video: { path: garbage }, tier: 'standard' }, await newRun()),
      'digitalHuman.reason.inputUnreadable',
    );
    await expectPermanent(
      provider.cloneImage({ video: {}, tier: 'standard' }, await newRun()),
      'digitalHuman.reason.inputUnreadable',
    );
  });
});

describe('video', () => {
  /** One frame's grey pixels at a size. */
  async function grey(file: string, at: number, width: number, height: number) {
    const { stdout } = await exec(
      'ffmpeg',
      [
        ...['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1'],
        ...['-vf', `scale=${width}:${height}`, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
      ],
      { encoding: 'buffer', maxBuffer: 1 << 24 },
    );
    return stdout;
  }

  async function speech(text: string, language: 'zh' | 'en') {
    const key = language === 'zh' ? 'embedded:zh-female' : 'embedded:en-male';
    return provider.synthesize(
      { text, language, voice: voice(key), speed: 1.3, volume: 1 },
      await newRun(),
    );
  }

  const avatarOf = (loop: string, width: number, height: number) => ({
    poster: { path: loop },
    loop: { path: loop },
    vendorRef: null,
    width,
    height,
  });

  it('renders the avatar with a loudness-driven mouth, as long as the speech', async () => {
    const text = '大家好。欢迎来到我们的直播间！';
    const voiceTrack = await speech(text, 'zh');
    const progress: number[] = [];
    const run = await newRun({ onProgress: (p) => progress.push(p.progress ?? -1) });
    const result = await provider.renderVideo(
      {
        avatar: avatarOf(greyLoop, 360, 640),
        speech: { path: voiceTrack.audioPath, duration: voiceTrack.duration },
        text,
        subtitles: false,
        width: 360,
        height: 640,
        layout: portrait,
      },
      run,
    );
    const facts = await probe(result.videoPath);
    const video = facts.streams.find((s) => s.codec_type === 'video')!;
    const audio = facts.streams.find((s) => s.codec_type === 'audio')!;
    expect(video).toMatchObject({ codec_name: 'h264', width: 360, height: 640 });
    expect(audio.codec_name).toBe('aac');
    expect(facts.format.format_name).toContain('mp4');
    expect(Math.abs(Number(facts.format.duration) - voiceTrack.duration)).toBeLessThan(0.2);
    expect(Math.abs(result.duration - voiceTrack.duration)).toBeLessThan(0.2);
    expect(result).toMatchObject({ width: 360, height: 640 });
    expect((await probe(result.posterPath)).streams[0]!.codec_name).toBe('mjpeg');
    expect(progress.at(-1)).toBe(1);
    expect(progress.some((p) => p > 0 && p < 1)).toBe(true);

    // The mouth (dark on the grey avatar, at 50 % across and 40 % down) opens and closes with
    // the sound: read that pixel in every frame.
    const { stdout } = await exec(
      'ffmpeg',
      [
        ...['-v', 'error', '-i', result.videoPath, '-vf', 'crop=4:4:178:254,scale=1:1'],
        ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
      ],
      { encoding: 'buffer', maxBuffer: 1 << 24 },
    );
    const dark = [...stdout].filter((v) => v < 80).length;
    const plain = [...stdout].filter((v) => v > 110).length;
    expect(dark).toBeGreaterThan(stdout.length * 0.15);
    expect(plain).toBeGreaterThan(stdout.length * 0.15);
  });

  it('adds subtitles and music on request, in a template with a background', async () => {
    const text = 'Hello and welcome. This is a short demonstration!';
    const voiceTrack = await speech(text, 'en');
    const render = async (subtitles: boolean, withMusic: boolean) =>
      provider.renderVideo(
        {
          avatar: avatarOf(wideVideo, 640, 360),
          speech: { path: voiceTrack.audioPath, duration: voiceTrack.duration },
          ...(withMusic ? { music: { path: music } } : {}),
          text,
          subtitles,
          width: 640,
          height: 360,
          layout: landscape,
        },
        await newRun(),
      );
    const plain = await render(false, false);
    const rich = await render(true, true);
    for (const result of [plain, rich]) {
      const facts = await probe(result.videoPath);
      expect(facts.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual([
        'audio:aac',
        'video:h264',
      ]);
      expect(Math.abs(Number(facts.format.duration) - voiceTrack.duration)).toBeLessThan(0.2);
      expect(result).toMatchObject({ width: 640, height: 360 });
    }
    // The subtitle band (left of the avatar, near 85 % down) differs; the background above it
    // is the template's colour in both.
    const [a, b] = await Promise.all([
      grey(plain.videoPath, 1, 640, 360),
      grey(rich.videoPath, 1, 640, 360),
    ]);
    const diff = (x0: number, y0: number, x1: number, y1: number) => {
      let sum = 0;
      for (let y = y0; y < y1; y += 1) {
        for (let x = x0; x < x1; x += 1) sum += Math.abs(a[y * 640 + x]! - b[y * 640 + x]!);
      }
      return sum / ((x1 - x0) * (y1 - y0));
    };
    expect(diff(100, 280, 380, 310)).toBeGreaterThan(5);
    expect(diff(20, 20, 300, 60)).toBeLessThan(1);
    const background = a[40 * 640 + 100]!;
    expect(background).toBeGreaterThan(30); // #1F3A5F, not black
    expect(background).toBeLessThan(80);

    // Music: the quiet moments of the speech are not silent any more.
    const quiet = async (file: string) => {
      const pcm = await decodePcm(file, dir, { sampleRate: 16000 });
      let silentish = 0;
      for (let i = 0; i < pcm.samples.length; i += 160) {
        let sum = 0;
        for (let k = i; k < Math.min(i + 160, pcm.samples.length); k += 1)
          sum += pcm.samples[k]! ** 2;
        if (Math.sqrt(sum / 160) < 0.005) silentish += 1;
      }
      return silentish / (pcm.samples.length / 160);
    };
    expect(await quiet(plain.videoPath)).toBeGreaterThan(0.1);
    expect(await quiet(rich.videoPath)).toBeLessThan(0.02);
  });

  it('fails permanently on an unreadable avatar or speech', async () => {
    const voiceTrack = await speech('Short.', 'en');
    const request = {
      avatar: avatarOf(greyLoop, 360, 640),
      speech: { path: voiceTrack.audioPath, duration: voiceTrack.duration },
      text: 'Short.',
      subtitles: true,
      width: 360,
      height: 640,
      layout: portrait,
    };
    await expectPermanent(
      provider.renderVideo({ ...request, avatar: avatarOf(garbage, 360, 640) }, await newRun()),
      'digitalHuman.reason.inputUnreadable',
    );
    await expectPermanent(
      provider.renderVideo({ ...request, speech: { path: garbage, duration: 1 } }, await newRun()),
      'digitalHuman.reason.inputUnreadable',
    );
    const run = await newRun();
    await expectPermanent(
      provider.renderVideo({ ...request, music: { path: garbage } }, run),
      'digitalHuman.reason.inputUnreadable',
    );
    expect(await fs.readdir(run.workDir)).not.toContain('video.mp4');
  });

  it('renders silent speech (volume 0: the mouth stays closed) and stops ffmpeg on abort', async () => {
    const text = 'Nothing to hear here, but a video all the same.';
    const silent = await provider.synthesize(
      { text, language: 'en', voice: voice('embedded:en-female'), speed: 1, volume: 0 },
      await newRun(),
    );
    const request = {
      avatar: avatarOf(greyLoop, 360, 640),
      speech: { path: silent.audioPath, duration: silent.duration },
      text,
      subtitles: true,
      width: 360,
      height: 640,
      layout: portrait,
    };
    const quiet = await provider.renderVideo(request, await newRun());
    expect(Math.abs(quiet.duration - silent.duration)).toBeLessThan(0.2);

    const controller = new AbortController();
    const run = await newRun({
      signal: controller.signal,
      onProgress: (p) => {
        if ((p.progress ?? 0) > 0) controller.abort(new Error('cancelled'));
      },
    });
    await expect(provider.renderVideo(request, run)).rejects.toThrow('cancelled');
    expect(await fs.readdir(run.workDir)).not.toContain('video.mp4');
  });

  it('reads its inputs from URLs too (storage on S3 hands out signed URLs)', async () => {
    const text = 'Served over HTTP.';
    const voiceTrack = await speech(text, 'en');
    const files: Record<string, string> = {
      '/loop.mp4': greyLoop,
      '/speech.wav': voiceTrack.audioPath,
      '/music.mp3': music,
    };
    const server = http.createServer((req, res) => {
      const file = files[req.url ?? ''];
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const result = await provider.renderVideo(
        {
          avatar: { ...avatarOf(greyLoop, 360, 640), loop: { url: `${base}/loop.mp4` } },
          speech: { url: `${base}/speech.wav`, duration: voiceTrack.duration },
          music: { url: `${base}/music.mp3` },
          text,
          subtitles: true,
          width: 360,
          height: 640,
          layout: portrait,
        },
        await newRun(),
      );
      expect(Math.abs(result.duration - voiceTrack.duration)).toBeLessThan(0.2);
      // A URL that fails may be the network: retried, not failed for good.
      const error = await provider
        .cloneVoice({ audio: { url: `${base}/missing.mp3` }, gender: 'male' }, await newRun())
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).permanent).toBe(false);
    } finally {
      server.close();
    }
  });

  it('switches the mouth every 40 ms by loudness (the script ffmpeg reads)', () => {
    const levels = mouthLevels([0, 0.02, 0.3, 0.9, 1, 0.2, 0], 1);
    expect(levels).toEqual([0, 0, 1, 2, 2, 1, 0]);
    expect(mouthCommands(levels).trim().split('\n')).toEqual([
      '0.06-0.1 [enter] overlay@m1 enable 1, [leave] overlay@m1 enable 0;',
      '0.1-0.18 [enter] overlay@m2 enable 1, [leave] overlay@m2 enable 0;',
      '0.18-0.22 [enter] overlay@m1 enable 1, [leave] overlay@m1 enable 0;',
    ]);
    const paths = {
      avatar: 'a.mp4',
      speech: 's.wav',
      music: null,
      background: null,
      commands: 'm.cmd',
      ass: null,
      out: 'o.mp4',
      poster: 'p.jpg',
    };
    const plan = { width: 720, height: 1280, duration: 3, preset: 'veryfast' as const };
    const full = buildVideoGraph({ ...plan, layout: portrait }, paths);
    expect(full).not.toContain('color=c=0x000000'); // the avatar fills the frame: no background
    expect(full).not.toContain('subtitles=');
    const framed = buildVideoGraph({ ...plan, layout: landscape }, { ...paths, ass: 'x.ass' });
    expect(framed).toContain('color=c=0x1F3A5F:s=720x1280');
    expect(framed).toContain('subtitles=filename=x.ass');
    // A malformed stored layout falls back to the whole frame (no NaN reaches ffmpeg).
    const broken = buildVideoGraph(
      { ...plan, layout: { avatar: { x: 'a' }, background: 5 } as unknown as TemplateLayout },
      paths,
    );
    expect(broken).toContain('scale=720:1280:force_original_aspect_ratio=increase');
    expect(broken).not.toContain('NaN');
  });
});

describe.runIf(process.env.DH_BENCH === '1')('speed', () => {
  it(
    'renders 30 s of 720×1280 at the default preset within its duration',
    { timeout: 300_000 },
    async () => {
      const fast = createEmbeddedProvider({ preset: 'veryfast' });
      const image = await fast.cloneImage(
        { video: { path: tallVideo }, tier: 'standard' },
        await newRun(),
      );
      const text = '今天我们来介绍一款新的产品，它可以帮助你更快地完成工作。'.repeat(5);
      const speechTrack = await fast.synthesize(
        { text, language: 'zh', voice: voice('embedded:zh-female'), speed: 1, volume: 1 },
        await newRun(),
      );
      const cut = path.join(dir, 'speech-30.wav');
      await ffmpeg('-i', speechTrack.audioPath, '-t', '30', cut);
      const started = process.hrtime.bigint();
      const before = await childrenCpu();
      const result = await fast.renderVideo(
        {
          avatar: avatarOf(image.loopPath, image.width, image.height),
          speech: { path: cut, duration: 30 },
          music: { path: music },
          text,
          subtitles: true,
          width: 720,
          height: 1280,
          layout: portrait,
        },
        await newRun(),
      );
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      console.log(
        `dh embedded render: ${result.duration.toFixed(2)} s of 720×1280 in ${seconds.toFixed(2)} s ` +
          `(${(seconds / result.duration).toFixed(2)}×), ffmpeg CPU ` +
          `${((await childrenCpu()) - before).toFixed(1)} s, load ${os.loadavg()[0]!.toFixed(1)}`,
      );
      expect(Math.abs(result.duration - 30)).toBeLessThan(0.2);
      expect(seconds).toBeLessThanOrEqual(result.duration);
    },
  );

  /** CPU seconds (user + system) of this process's finished children (/proc: Linux). */
  async function childrenCpu(): Promise<number> {
    const stat = await fs.readFile('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 (cutime, cstime), counted from 3 after the command name.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  }

  function avatarOf(loop: string, width: number, height: number) {
    return { poster: { path: loop }, loop: { path: loop }, vendorRef: null, width, height };
  }
});
