// The data of the video benches (sections h and p: scripts/bench/video-load.ts,
// scripts/bench/preview-load.ts): the bench's own database with the demo data, and the
// merchant's shots (GROUPS groups of the 3 generated clips) and a music, their files stored where
// the server reads them.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../server/platform/config';
import type { DbHandle } from '../../server/platform/db/connection';
import { runNiced } from '../../server/platform/jobs/child-process';
import type { RenderInput } from '../../server/platform/render/spec';
import { createFileStorage } from '../../server/platform/storage/create';
import { newFileKey } from '../../server/platform/storage/keys';
import { openBenchDatabase, type BenchDatabaseBase } from './bench-setup';

/** The shots: three generated clips (sizes and ratios of real phones and cameras), reused. */
export const CLIPS = [
  { file: 'wide.mp4', sound: true, src: 'testsrc2=size=1920x1080:rate=30', w: 1920, h: 1080 },
  { file: 'bars.mp4', sound: true, src: 'smptehdbars=size=1280x720:rate=25', w: 1280, h: 720 },
  { file: 'tall.mp4', sound: false, src: 'testsrc=size=1080x1920:rate=30', w: 1080, h: 1920 },
] as const;
export const CLIP_SECONDS = 4;
export const GROUPS = 3;

export interface Resource {
  id: number;
  file: string;
  input: RenderInput;
}

export interface Bench extends BenchDatabaseBase {
  /** GROUPS groups of 3 video resources. */
  groups: Resource[][];
  music: Resource;
}

const ffmpeg = (args: string[]) =>
  runNiced('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { niceness: 0 });

/** The demo data, and the merchant's shots (3 groups × 3 videos) and one music, files stored. */
export function prepare(prefix = 'vc-bench-video-'): Promise<Bench> {
  return openBenchDatabase(prefix, async (handle: DbHandle, now, dataDir) => {
    const { db } = handle;
    const merchant = Number(
      (
        await db
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'merchant')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const media = path.join(dataDir, 'media');
    await fs.mkdir(media);
    for (const clip of CLIPS) {
      await ffmpeg([
        ...['-f', 'lavfi', '-i', `${clip.src}:duration=${CLIP_SECONDS}`],
        ...(clip.sound ? ['-f', 'lavfi', '-i', `sine=frequency=330:duration=${CLIP_SECONDS}`] : []),
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
        ...(clip.sound ? ['-c:a', 'aac', '-shortest'] : []),
        path.join(media, clip.file),
      ]);
    }
    await ffmpeg([
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=5', '-c:a', 'libmp3lame'],
      path.join(media, 'music.mp3'),
    ]);
    // The server's storage (DATA_DIR/files, or S3 when configured), so that it reads them.
    const storage = createFileStorage({ ...loadConfig(), dataDir }, () => Date.now());
    const put = async (
      file: string,
      type: 'video' | 'bgm',
      name: string,
      facts: {
        durationMs: number;
        width: number | null;
        height: number | null;
        hasAudio: boolean | null;
      },
    ): Promise<{ id: number; key: string }> => {
      const bytes = await fs.readFile(file);
      const contentType = type === 'video' ? 'video/mp4' : 'audio/mpeg';
      const key = newFileKey('uploads', now);
      await storage.put(key, bytes, { contentType, filename: name });
      const upload = await db
        .insertInto('uploads')
        .values({
          upload_key: randomBytes(12).toString('hex'),
          owner_id: merchant,
          type,
          name,
          size: bytes.length,
          storage_key: key,
          method: 'form',
          s3_upload_id: null,
          state: 'used',
          refused_reason: null,
          created_at: now,
          expires_at: now + 3_600_000,
          finished_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await db
        .insertInto('resources')
        .values({
          owner_id: merchant,
          group_id: null,
          type,
          name,
          upload_id: Number(upload.id),
          storage_key: key,
          poster_key: null,
          content_type: contentType,
          size: bytes.length,
          duration_ms: facts.durationMs,
          width: facts.width,
          height: facts.height,
          codec: type === 'video' ? 'h264' : null,
          // As an upload records it (server/modules/resources/add-resource.ts, migration 0008):
          // the renderer reads it from the row instead of probing the file.
          has_audio: facts.hasAudio === null ? null : Number(facts.hasAudio),
          created_at: now,
          updated_at: now,
          deleted_at: null,
          file_deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: Number(row.id), key };
    };
    const localPath = (key: string) => storage.localFiles?.path(key) ?? key;
    const groups: Resource[][] = [];
    for (let g = 0; g < GROUPS; g += 1) {
      const group: Resource[] = [];
      for (const [i, clip] of CLIPS.entries()) {
        const file = path.join(media, clip.file);
        const { id, key } = await put(file, 'video', `镜头 ${g + 1}-${i + 1}`, {
          durationMs: CLIP_SECONDS * 1000,
          width: clip.w,
          height: clip.h,
          hasAudio: clip.sound,
        });
        const source = localPath(key);
        group.push({ id, file, input: { source, duration: CLIP_SECONDS, hasAudio: clip.sound } });
      }
      groups.push(group);
    }
    const musicFile = path.join(media, 'music.mp3');
    const m = await put(musicFile, 'bgm', '背景音乐', {
      durationMs: 5000,
      width: null,
      height: null,
      hasAudio: null,
    });
    const music = {
      id: m.id,
      file: musicFile,
      input: { source: localPath(m.key), duration: 5, hasAudio: true },
    };
    return { groups, music };
  });
}
