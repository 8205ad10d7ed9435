import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Real media files for the upload tests, made with ffmpeg once and kept in the system's temp
 * dir between runs (each is made again when missing). Nothing here is a padded or faked file.
 */
const run = promisify(execFile);
const DIR = path.join(os.tmpdir(), 'vc-upload-fixtures-v1');

const RECIPES = {
  /** 2 s of 1280×720 H.264 (the size of every test clip). */
  'clip.mp4': [
    ...['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25', '-t', '2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  ],
  /** A 0.5 s clip with sound, as a phone's .mov would be (QuickTime container). */
  'clip.mov': [
    ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=d=0.5'],
    ...['-t', '0.5', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-f', 'mov'],
  ],
  /** An MP4 (isom brand, so its magic bytes say video/mp4) holding only sound. */
  'sound-only.mp4': ['-f', 'lavfi', '-i', 'sine=d=1', '-c:a', 'aac', '-f', 'mp4'],
  'photo.png': ['-f', 'lavfi', '-i', 'testsrc=size=640x360', '-frames:v', '1'],
  'photo.jpg': ['-f', 'lavfi', '-i', 'testsrc=size=1024x768', '-frames:v', '1'],
  'photo.webp': [
    ...['-f', 'lavfi', '-i', 'testsrc=size=300x200', '-frames:v', '1', '-c:v', 'libwebp'],
  ],
  'tone.mp3': ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1.5', '-c:a', 'libmp3lame'],
  'tone.wav': ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1'],
  /** Render inputs: 3 s of 1920×1080 with sound (a 220 Hz tone). */
  'wide-sound.mp4': [
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-f', 'lavfi', '-i'],
    ...['sine=frequency=220:duration=3', '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
  ],
  /** 2 s of 640×480 (4:3) without sound. */
  'small-silent.mp4': [
    ...['-f', 'lavfi', '-i', 'smptebars=size=640x480:rate=25', '-t', '2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  ],
  /** 2 s of 1080×1920 (a phone's portrait clip) with sound. */
  'tall-sound.mp4': [
    ...['-f', 'lavfi', '-i', 'testsrc=size=1080x1920:rate=30', '-f', 'lavfi', '-i'],
    ...['sine=frequency=330:duration=2', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
  ],
  /** A 32×32 favicon (ICO, a BMP inside). */
  'icon.ico': ['-f', 'lavfi', '-i', 'color=c=blue:size=32x32', '-frames:v', '1'],
  /** ≈ 3 MB of PNG (1024×1024 of noise, which does not compress): over a logo's 1 MB. */
  'noise.png': [
    ...['-f', 'lavfi', '-i', 'testsrc=size=1024x1024,noise=alls=100:allf=t', '-frames:v', '1'],
  ],
  /** A 200×200 sticker: an opaque red square (RGBA PNG). */
  'sticker.png': [
    ...['-f', 'lavfi', '-i', 'color=c=red:size=200x200', '-vf', 'format=rgba', '-frames:v', '1'],
  ],
  /** ≈ 12 MB of real H.264 (lossless noise, 10 frames): two parts of an S3 multipart upload. */
  'medium.mp4': [
    ...['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25,noise=alls=100:allf=t', '-t', '0.4'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p'],
  ],
  /**
   * ≈ 210 MB of real H.264 (lossless noise, so it cannot compress): the resumable upload test's
   * large file, made in a few seconds.
   */
  'large.mp4': [
    ...['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25,noise=alls=100:allf=t', '-t', '6.4'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p'],
  ],
} as const;

export type Fixture = keyof typeof RECIPES;

const making = new Map<Fixture, Promise<string>>();

/** The fixture's path, made first when it is missing. */
export function fixture(name: Fixture): Promise<string> {
  let promise = making.get(name);
  if (!promise) {
    promise = make(name);
    making.set(name, promise);
  }
  return promise;
}

async function make(name: Fixture): Promise<string> {
  const file = path.join(DIR, name);
  if (
    await fs
      .stat(file)
      .then((s) => s.size > 0)
      .catch(() => false)
  )
    return file;
  await fs.mkdir(DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp${path.extname(name)}`;
  await run('nice', ['-n', '10', 'ffmpeg', '-v', 'error', '-y', ...RECIPES[name], tmp], {
    maxBuffer: 1 << 20,
  });
  await fs.rename(tmp, file);
  return file;
}

export async function fixtureBytes(name: Fixture): Promise<Buffer> {
  return fs.readFile(await fixture(name));
}
