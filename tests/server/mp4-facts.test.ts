import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMp4Facts } from '../../server/platform/render/mp4-facts';
import { probeVideo } from '../../server/platform/render/render';

/**
 * The output facts renderVideo records (duration, width, height) read from the MP4's boxes in
 * process (no ffprobe per output) are the ones ffprobe reports, for the files
 * ffmpeg writes: moov first (`+faststart`, the renderer's) or last, a QuickTime .mov, a 64-bit
 * mdat header; what is not an MP4 with a video track is refused (renderVideo then runs ffprobe).
 */
const run = promisify(execFile);
let dir: string;

const make = async (name: string, args: string[]) => {
  const file = path.join(dir, name);
  await run('nice', ['-n', '10', 'ffmpeg', '-v', 'error', '-y', ...args, file]);
  return file;
};
const clip = (size: string, seconds: string) => [
  ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`, '-f', 'lavfi', '-i', 'sine=d=5'],
  ...['-t', seconds, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  ...['-c:a', 'aac'],
];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mp4-facts-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function expectSameAsProbe(file: string) {
  const [facts, probed] = await Promise.all([readMp4Facts(file), probeVideo(file)]);
  expect(facts).toEqual({
    codec: 'avc1',
    width: probed.width,
    height: probed.height,
    duration: probed.duration,
  });
  return facts;
}

describe('readMp4Facts', () => {
  it('reads an MP4 written with +faststart (moov first) as ffprobe does', async () => {
    const file = await make('fast.mp4', [...clip('720x1280', '2.96'), '-movflags', '+faststart']);
    expect(await expectSameAsProbe(file)).toMatchObject({ width: 720, height: 1280 });
  });

  it('reads an MP4 whose moov is at the end, and a QuickTime .mov', async () => {
    const last = await make('last.mp4', clip('1280x720', '1.3'));
    expect(await expectSameAsProbe(last)).toMatchObject({ width: 1280, height: 720 });
    const mov = await make('clip.mov', [...clip('320x240', '0.5'), '-f', 'mov']);
    expect(await expectSameAsProbe(mov)).toMatchObject({ width: 320, height: 240 });
  });

  it('reads past a 64-bit box header (size 1 + largesize)', async () => {
    const file = await make('large-header.mp4', clip('640x360', '1'));
    const bytes = await fs.readFile(file);
    // ffmpeg writes `free` (8 bytes) before `mdat`, room to widen mdat's header to 64 bits
    // without moving anything: [1]['mdat'][largesize = mdat's size + 8].
    const free = bytes.indexOf('free', 0, 'latin1') - 4;
    expect(bytes.readUInt32BE(free)).toBe(8);
    expect(bytes.toString('latin1', free + 12, free + 16)).toBe('mdat');
    const mdatSize = bytes.readUInt32BE(free + 8);
    const header = Buffer.alloc(16);
    header.writeUInt32BE(1, 0);
    header.write('mdat', 4, 'latin1');
    header.writeBigUInt64BE(BigInt(mdatSize + 8), 8);
    header.copy(bytes, free);
    await fs.writeFile(file, bytes);
    expect(await expectSameAsProbe(file)).toMatchObject({ width: 640, height: 360 });
  });

  it('refuses what is not an MP4 with a video track', async () => {
    const sound = await make('sound.mp4', ['-f', 'lavfi', '-i', 'sine=d=1', '-c:a', 'aac']);
    await expect(readMp4Facts(sound)).rejects.toThrow(/No video track/);
    const noise = path.join(dir, 'noise.mp4');
    await fs.writeFile(noise, randomBytes(4096));
    await expect(readMp4Facts(noise)).rejects.toThrow();
    // Cut before its moov (at the end): no header to read.
    const last = await make('cut.mp4', clip('320x240', '1'));
    const bytes = await fs.readFile(last);
    await fs.writeFile(last, bytes.subarray(0, bytes.indexOf('moov', 0, 'latin1') - 4));
    await expect(readMp4Facts(last)).rejects.toThrow(/No moov/);
    await expect(readMp4Facts(path.join(dir, 'missing.mp4'))).rejects.toThrow(/ENOENT/);
  });
});
