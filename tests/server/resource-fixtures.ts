import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ResourceType } from '../../src/api/contract/resources';
import { runNiced } from '../../server/platform/jobs/child-process';
import { newFileKey } from '../../server/platform/storage/keys';
import type { TestApp } from './helpers';

export interface PutResource {
  type?: ResourceType;
  name?: string;
  groupId?: number | null;
  /** The file's bytes (default: a few random bytes). */
  bytes?: Buffer;
  contentType?: string;
  /** Make a poster file too (default: for video and image types). */
  poster?: boolean;
  durationMs?: number | null;
}

export interface PutResult {
  id: number;
  storageKey: string;
  posterKey: string | null;
  bytes: Buffer;
}

const POSTERED: readonly ResourceType[] = ['video', 'intro', 'outro', 'image', 'sticker'];

/**
 * A resource of `ownerId` as `resource/add` leaves one (an upload row in state `used`, the file
 * and its poster in the storage), written directly: the library's tests do not depend on the
 * upload checks (ffprobe, ffmpeg).
 */
export async function putResource(
  t: TestApp,
  ownerId: number,
  options: PutResource = {},
): Promise<PutResult> {
  const type = options.type ?? 'video';
  const name = options.name ?? `${type} ${randomBytes(3).toString('hex')}`;
  const bytes = options.bytes ?? randomBytes(64);
  const contentType =
    options.contentType ??
    (type === 'image' || type === 'sticker'
      ? 'image/png'
      : type === 'audio' || type === 'bgm'
        ? 'audio/mpeg'
        : type === 'font'
          ? 'font/ttf'
          : 'video/mp4');
  const now = t.clock();
  const storage = t.app.ctx.storage;
  const storageKey = newFileKey('uploads', now);
  await storage.put(storageKey, bytes, { contentType, filename: name });
  const withPoster = options.poster ?? POSTERED.includes(type);
  const posterKey = withPoster ? newFileKey('posters', now) : null;
  if (posterKey) {
    await storage.put(posterKey, randomBytes(32), { contentType: 'image/jpeg' });
  }
  const upload = await t.db
    .insertInto('uploads')
    .values({
      upload_key: randomBytes(12).toString('hex'),
      owner_id: ownerId,
      type,
      name,
      size: bytes.length,
      storage_key: storageKey,
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
  const media = contentType.startsWith('video/') || contentType.startsWith('audio/');
  const row = await t.db
    .insertInto('resources')
    .values({
      owner_id: ownerId,
      group_id: options.groupId ?? null,
      type,
      name,
      upload_id: Number(upload.id),
      storage_key: storageKey,
      poster_key: posterKey,
      content_type: contentType,
      size: bytes.length,
      duration_ms: options.durationMs !== undefined ? options.durationMs : media ? 12_340 : null,
      width: withPoster ? 1280 : null,
      height: withPoster ? 720 : null,
      codec: contentType === 'video/mp4' ? 'h264' : null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      file_deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), storageKey, posterKey, bytes };
}

/** Small real media made by ffmpeg once per test file: a 320×240 1 s H.264 MP4 and a PNG. */
export async function makeMedia(): Promise<{ mp4: Buffer; png: Buffer }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-media-'));
  try {
    const run = (args: string[]) =>
      runNiced('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { niceness: 0 });
    const mp4 = path.join(dir, 'clip.mp4');
    const png = path.join(dir, 'pic.png');
    await run([
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10:duration=1'],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', mp4],
    ]);
    await run(['-f', 'lavfi', '-i', 'color=c=red:s=64x48', '-frames:v', '1', png]);
    return { mp4: fs.readFileSync(mp4), png: fs.readFileSync(png) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A complete upload of `ownerId` (state `uploaded`, its bytes stored), as the tus endpoint or
 * `oss_upload` leaves one; answers its key for `resource/add`.
 */
export async function putUpload(
  t: TestApp,
  ownerId: number,
  file: { type: ResourceType; name: string; bytes: Buffer; contentType?: string },
): Promise<{ uploadKey: string; storageKey: string }> {
  const now = t.clock();
  const storageKey = newFileKey('uploads', now);
  await t.app.ctx.storage.put(storageKey, file.bytes, {
    contentType: file.contentType ?? 'application/octet-stream',
    filename: file.name,
  });
  const uploadKey = randomBytes(12).toString('hex');
  await t.db
    .insertInto('uploads')
    .values({
      upload_key: uploadKey,
      owner_id: ownerId,
      type: file.type,
      name: file.name,
      size: file.bytes.length,
      storage_key: storageKey,
      method: 'form',
      s3_upload_id: null,
      state: 'uploaded',
      refused_reason: null,
      created_at: now,
      expires_at: now + 3_600_000,
      finished_at: now,
    })
    .execute();
  return { uploadKey, storageKey };
}
