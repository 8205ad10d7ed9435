/**
 * Real media for the browser tests, made with ffmpeg in a temp dir (nothing padded or faked):
 * short H.264 clips and still images the upload and creation specs send through the page.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A fresh temp dir for one spec file's media. */
export function mediaDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `e2e-${prefix}-`));
}

export interface ClipOptions {
  /** `WxH` (default 1280x720). */
  size?: string;
  /** Seconds (default 2). */
  seconds?: number;
  /** A lavfi video source (default `testsrc`); e.g. `smptebars`, `color=c=navy`. */
  source?: string;
  /** Adds a sine tone as its sound. */
  audio?: boolean;
}

/** An H.264 MP4 (ultrafast) at `file`. */
export function makeClip(file: string, options: ClipOptions = {}): string {
  const { size = '1280x720', seconds = 2, source = 'testsrc', audio = false } = options;
  const sep = source.includes('=') ? ':' : '=';
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `${source}${sep}size=${size}:rate=25`],
    ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...(audio ? ['-c:a', 'aac'] : []),
    file,
  ]);
  return file;
}

/** A one-colour PNG at `file`. */
export function makeImage(file: string, colour = 'orange', size = '320x240'): string {
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `color=c=${colour}:size=${size}`, '-frames:v', '1'],
    file,
  ]);
  return file;
}
