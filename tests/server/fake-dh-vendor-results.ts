import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The fake digital-human vendor's work (tests/server/fake-dh-vendor.ts): real result files made
 * with ffmpeg from the inputs it downloads (a poster and a loop cut from the source video, a tone
 * as long as the text would take to say, a video of the frame size carrying the speech).
 */
const exec = promisify(execFile);

export type FakeJobType = 'image_clone' | 'voice_clone' | 'speech' | 'video';

export interface JobOrder {
  id: string;
  type: FakeJobType;
  input: Record<string, unknown>;
}

export interface ResultContext {
  /** The vendor's files dir (one dir per job) and base URL (`/files/<job>/<name>`). */
  dir: string;
  baseUrl: string;
  fetchInput: (url: string) => Promise<{ status: number; body: Buffer }>;
}

async function download(
  ctx: ResultContext,
  url: unknown,
  name: string,
  jobDir: string,
): Promise<string> {
  if (typeof url !== 'string')
    throw Object.assign(new Error(`${name}: no URL`), { code: 'input_invalid' });
  const { status, body: bytes } = await ctx.fetchInput(url);
  if (status < 200 || status > 299 || bytes.length === 0) {
    throw Object.assign(new Error(`${name}: HTTP ${status} from ${url}`), {
      code: 'input_unreachable',
    });
  }
  const file = path.join(jobDir, name);
  await fs.writeFile(file, bytes);
  return file;
}

const ffmpeg = (args: string[]) => exec('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
const probe = async (file: string) => {
  const { stdout } = await exec('ffprobe', [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    file,
  ]);
  const parsed = JSON.parse(stdout) as {
    streams: { width?: number; height?: number }[];
    format: { duration?: string };
  };
  const video = parsed.streams.find((s) => s.width);
  return {
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    duration: Number(parsed.format.duration ?? 0),
  };
};
const even = (n: unknown, fallback: number) =>
  typeof n === 'number' && n > 0 ? Math.max(2, Math.round(n / 2) * 2) : fallback;

/** Real result files made from the downloaded inputs; answers the job's `result`. */
export async function makeResults(
  job: JobOrder,
  ctx: ResultContext,
): Promise<Record<string, unknown>> {
  const jobDir = path.join(ctx.dir, job.id);
  await fs.mkdir(jobDir, { recursive: true });
  const fileUrl = (name: string) => `${ctx.baseUrl}/files/${job.id}/${name}`;
  const input = job.input;
  if (job.type === 'image_clone') {
    const source = await download(ctx, input.video_url, 'source', jobDir);
    await ffmpeg([
      '-i',
      source,
      '-frames:v',
      '1',
      '-q:v',
      '4',
      '-f',
      'mjpeg',
      path.join(jobDir, 'poster.jpg'),
    ]);
    await ffmpeg([
      '-i',
      source,
      '-t',
      '1',
      '-an',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      path.join(jobDir, 'loop.mp4'),
    ]);
    const facts = await probe(path.join(jobDir, 'loop.mp4'));
    return {
      avatar_id: `avatar-${job.id}`,
      poster_url: fileUrl('poster.jpg'),
      loop_url: fileUrl('loop.mp4'),
      width: facts.width,
      height: facts.height,
    };
  }
  if (job.type === 'voice_clone') {
    await download(ctx, input.audio_url, 'sample', jobDir);
    return { voice_id: `voice-${job.id}` };
  }
  if (job.type === 'speech') {
    const speed = typeof input.speed === 'number' && input.speed > 0 ? input.speed : 1;
    const duration = Math.max(0.5, Math.min(60, (String(input.text).length * 0.12) / speed));
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=220:duration=${duration.toFixed(2)}`,
      '-ar',
      '22050',
      '-ac',
      '1',
      path.join(jobDir, 'speech.wav'),
    ]);
    return { audio_url: fileUrl('speech.wav'), duration: Number(duration.toFixed(2)) };
  }
  const avatar = (input.avatar ?? {}) as Record<string, unknown>;
  const speech = await download(ctx, input.speech_url, 'speech', jobDir);
  await download(ctx, avatar.poster_url, 'avatar-poster', jobDir);
  if (input.music_url) await download(ctx, input.music_url, 'music', jobDir);
  if (input.background_url) await download(ctx, input.background_url, 'background', jobDir);
  const width = even(input.width, 360);
  const height = even(input.height, 640);
  const { duration } = await probe(speech);
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `color=c=navy:s=${width}x${height}:r=25`, '-i', speech],
    ...[
      '-t',
      duration.toFixed(3),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
    ],
    ...['-c:a', 'aac', '-shortest', path.join(jobDir, 'video.mp4')],
  ]);
  await ffmpeg([
    '-i',
    path.join(jobDir, 'video.mp4'),
    '-frames:v',
    '1',
    '-f',
    'mjpeg',
    path.join(jobDir, 'poster.jpg'),
  ]);
  const facts = await probe(path.join(jobDir, 'video.mp4'));
  return {
    video_url: fileUrl('video.mp4'),
    poster_url: fileUrl('poster.jpg'),
    duration: facts.duration,
    width: facts.width,
    height: facts.height,
  };
}

/** Overwrites the job's result files with bytes no player reads. */
export async function spoilResults(
  job: JobOrder & { result: Record<string, unknown> | null },
  ctx: ResultContext,
) {
  for (const value of Object.values(job.result ?? {})) {
    const name = typeof value === 'string' && value.startsWith(`${ctx.baseUrl}/files/${job.id}/`);
    if (name) await fs.writeFile(path.join(ctx.dir, job.id, path.basename(value)), 'not media');
  }
}
