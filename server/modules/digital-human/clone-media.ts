import fs from 'node:fs/promises';
import { runNiced } from '../../platform/jobs/child-process';

/**
 * Media made on this machine for clones (the demo data and the tests): never downloaded. ffmpeg
 * test patterns for the presenter videos, espeak-ng for a voice sample.
 */

const ffmpeg = (args: string[]) =>
  runNiced('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { niceness: 5 });

const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/**
 * One continuous take: `seconds` of ffmpeg's moving `testsrc2` pattern (no cut), with a tone, as
 * an image clone's source video. Small (`size`, 10 fps) so that it is made and checked quickly.
 */
export async function makeContinuousTake(
  file: string,
  options: { seconds?: number; size?: string } = {},
): Promise<void> {
  const seconds = options.seconds ?? 30;
  const size = options.size ?? '320x240';
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=10:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=220:duration=${seconds}`],
    ...h264,
    ...['-c:a', 'aac', '-shortest', '-movflags', '+faststart', '-f', 'mp4', file],
  ]);
}

/** Two shots joined by a cut (half `testsrc2`, half colour bars): fails the one-take check. */
export async function makeTwoShots(
  file: string,
  options: { seconds?: number; size?: string } = {},
): Promise<void> {
  const half = (options.seconds ?? 30) / 2;
  const size = options.size ?? '320x240';
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=10:duration=${half}`],
    ...['-f', 'lavfi', '-i', `smptebars=size=${size}:rate=10:duration=${half}`],
    ...['-filter_complex', '[0:v][1:v]concat=n=2:v=1[v]', '-map', '[v]'],
    ...h264,
    ...['-movflags', '+faststart', '-f', 'mp4', file],
  ]);
}

/** A short clip (the consent video): `seconds` of `testsrc` with a tone. */
export async function makeConsentClip(file: string, seconds = 3): Promise<void> {
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `testsrc=size=320x240:rate=10:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}`],
    ...h264,
    ...['-c:a', 'aac', '-shortest', '-movflags', '+faststart', '-f', 'mp4', file],
  ]);
}

const SAMPLE_TEXT =
  'Hello, this is a sample of my voice for the digital human. I read a few sentences clearly, ' +
  'at an even pace, so that the clone can learn how I speak. Thank you for listening.';

/**
 * A voice sample: espeak-ng reading a few sentences, padded (silence) or cut to `seconds`, as an
 * MP3 (an `audio` resource).
 */
export async function makeVoiceSample(file: string, seconds = 12): Promise<void> {
  const wav = `${file}.speech.wav`;
  try {
    await runNiced('espeak-ng', ['-s', '150', '-w', wav, SAMPLE_TEXT], { niceness: 5 });
    await ffmpeg([
      ...['-i', wav, '-af', 'apad', '-t', String(seconds)],
      ...['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', file],
    ]);
  } finally {
    await fs.rm(wav, { force: true });
  }
}
