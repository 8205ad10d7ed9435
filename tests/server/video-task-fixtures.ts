import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { VideoTaskDetail } from '../../src/api/contract/video-tasks';
import { FINISHED_TASK_STATUSES } from '../../src/api/contract/video-tasks';
import { fixtureBytes, type Fixture } from './media-fixtures';
import { api, type TestApp } from './helpers';
import { putResource } from './resource-fixtures';

const run = promisify(execFile);

/** Real shots for the renders: 2 s 4:3 silent, 2 s portrait with sound, 3 s 1080p with sound. */
export const SHOT_FILES: readonly { name: Fixture; ms: number }[] = [
  { name: 'small-silent.mp4', ms: 2000 },
  { name: 'tall-sound.mp4', ms: 2000 },
  { name: 'wide-sound.mp4', ms: 3000 },
];

/** 3 groups × 3 shots of `ownerId` (9 resources: the 3 files in each group). */
export async function putShotGroups(t: TestApp, ownerId: number): Promise<number[][]> {
  const groups: number[][] = [];
  for (let g = 0; g < 3; g += 1) {
    const ids: number[] = [];
    for (const [i, file] of SHOT_FILES.entries()) {
      const put = await putResource(t, ownerId, {
        type: 'video',
        name: `g${g + 1} shot ${i + 1}`,
        bytes: await fixtureBytes(file.name),
        durationMs: file.ms,
      });
      ids.push(put.id);
    }
    groups.push(ids);
  }
  return groups;
}

/** A mixed body: 9:16 720p at 25 fps, each shot 0.8 s (outputs of 2.4 s). */
export function mixedBody(groups: number[][], extra: Record<string, unknown> = {}) {
  return {
    kind: 'mixed',
    name: 'Spring sale',
    mode: 'sequential',
    count: 5,
    ratio: '9:16',
    resolution: '720p',
    fps: 25,
    bitrate: 800,
    music_volume: 5,
    keep_original_sound: true,
    shot_groups: groups.map((resource_ids) => ({ resource_ids, duration: 0.8 })),
    ...extra,
  };
}

/** The task's detail once nothing is queued or rendering (polls; fails after `timeoutMs`). */
export async function waitFinished(
  t: TestApp,
  token: string,
  id: number,
  timeoutMs = 90_000,
): Promise<VideoTaskDetail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await t.call<VideoTaskDetail>('GET', api('/video_task/detail'), {
      token,
      query: { id: String(id) },
      headers: { lang: 'en-US' },
    });
    expect(reply.body.code, reply.raw).toBe(1);
    const task = reply.body.data;
    if (FINISHED_TASK_STATUSES.includes(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task.status}: ${reply.raw}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

export interface Probed {
  codec: string;
  width: number;
  height: number;
  fps: number;
  duration: number;
}

/** ffprobe of a file: its video stream's codec, size, frame rate and the container's length. */
export async function ffprobe(file: string): Promise<Probed> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
  ]);
  const data = JSON.parse(stdout) as {
    streams: {
      codec_type: string;
      codec_name: string;
      width: number;
      height: number;
      avg_frame_rate: string;
    }[];
    format: { duration: string };
  };
  const video = data.streams.find((s) => s.codec_type === 'video')!;
  const [num, den] = video.avg_frame_rate.split('/').map(Number);
  return {
    codec: video.codec_name,
    width: video.width,
    height: video.height,
    fps: num / den,
    duration: Number(data.format.duration),
  };
}
