import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  ACCEPTED_CONTENT_TYPES,
  MEDIA_KIND,
  RESOURCE_TYPES,
  type ResourceType,
} from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import { AppError, refuse } from '../../platform/http/errors';
import type { MessageParams } from '../../platform/i18n';
import { newFileKey } from '../../platform/storage/keys';
import { hasArchiveTail, makePoster, POSTER_TYPE, probeMedia, sniffType } from './media-probe';
import { overQuotaNow } from './quota';
import { findOwnUpload, moveUpload, type UploadRow } from './repo';
import { checkSize, EXTENSION_TYPES, extensionOf, extensionsOf } from './upload-rules';

/** A complete upload that passed every check: what a resource is made of. */
export interface CheckedUpload {
  uploadId: number;
  type: ResourceType;
  /** The user's file name (display only). */
  name: string;
  storageKey: string;
  /** A WebP poster (video: a frame; image: a thumbnail); null for audio and fonts. */
  posterKey: string | null;
  /** The type the file is stored and served as (its content was checked to be one of it). */
  contentType: string;
  size: number;
  durationMs: number | null;
  width: number | null;
  height: number | null;
  codec: string | null;
  /** Whether the file has an audio stream (video, audio); null for images and fonts. */
  hasAudio: boolean | null;
}

/** A refusal that deletes the file: the upload ends `refused` with the message id as reason. */
class Refusal extends AppError {}
const refusal = (id: ConstructorParameters<typeof AppError>[0], params?: MessageParams) =>
  new Refusal(id, params);

/** Where the check reads the bytes: the local disk's own file, else a temp copy (S3). */
export async function localCopy(
  ctx: AppContext,
  key: string,
): Promise<{ file: string; dispose: () => Promise<void> }> {
  const local = await ctx.storage.localPath(key);
  if (local) return { file: local, dispose: async () => undefined };
  const file = await tempPath(ctx, '');
  const read = await ctx.storage.get(key);
  if (!read) throw refusal('upload.incomplete');
  const dispose = () => fsp.rm(file, { force: true });
  try {
    await pipeline(read.body, fs.createWriteStream(file, { flags: 'wx' }));
  } catch (error) {
    await dispose();
    throw error;
  }
  return { file, dispose };
}

export async function tempPath(ctx: AppContext, extension: string): Promise<string> {
  const dir = path.join(ctx.config.dataDir, 'tmp');
  await fsp.mkdir(dir, { recursive: true });
  return path.join(dir, `check-${randomBytes(12).toString('hex')}${extension}`);
}

/**
 * Checks a complete upload before it becomes a resource (docs/decisions.md
 * "Files and uploads"): it must be the owner's (another owner's or an unknown key is refused alike, as
 * `validation.uploadKey`), complete (`uploaded`, the stored bytes exactly the declared size), of
 * the type's size limit and within the owner's quota (again, now), and really what its type
 * takes: the magic bytes one of the kind's content types and matching the name's extension, no
 * archive hidden at its end, and for media a video (audio) stream that ffprobe reads. A refused
 * file is deleted and the upload marked `refused` with the reason; the refusal is thrown in the
 * caller's locale (an AppError). On success it probes width, height, duration, codec and whether
 * a video has an audio stream (`resources.has_audio`: the renderer needs it) and stores a poster
 * (video and image). It does not claim the upload: `claimUpload` does, in the transaction that
 * makes the resource (and that caller deletes the poster if the claim fails).
 */
export async function checkUpload(
  ctx: AppContext,
  ownerId: number,
  uploadKey: string,
): Promise<CheckedUpload> {
  const row = await findOwnUpload(ctx.db, ownerId, uploadKey);
  if (!row || !(RESOURCE_TYPES as readonly string[]).includes(row.type)) {
    throw refuse('validation.uploadKey');
  }
  if (row.state === 'pending') throw refuse('upload.incomplete');
  if (row.state !== 'uploaded') throw refuse('validation.uploadKey');
  try {
    return await checkStored(ctx, row);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    await discardUpload(ctx, row, error.messageId);
    throw refuse(error.messageId, error.params);
  }
}

/** Deletes a refused upload's bytes and marks it refused (once: a second check finds it gone). */
async function discardUpload(ctx: AppContext, row: UploadRow, reason: string): Promise<void> {
  if (await moveUpload(ctx.db, row.id, 'uploaded', 'refused', { refusedReason: reason })) {
    await ctx.storage.delete(row.storage_key);
  }
}

async function checkStored(ctx: AppContext, row: UploadRow): Promise<CheckedUpload> {
  const type = row.type as ResourceType;
  const kind = MEDIA_KIND[type];
  const info = await ctx.storage.stat(row.storage_key);
  if (!info) throw refusal('upload.incomplete');
  if (info.size !== row.size) {
    throw refusal('upload.sizeMismatch', { actual: info.size, declared: row.size });
  }
  try {
    checkSize(type, info.size);
  } catch (error) {
    if (error instanceof AppError) throw refusal(error.messageId, error.params);
    throw error;
  }
  // Its own declared size is counted in `used` already (state uploaded).
  const over = await overQuotaNow(ctx, row);
  if (over) throw refusal('upload.overQuota', over);

  const { file, dispose } = await localCopy(ctx, row.storage_key);
  try {
    const mime = await sniffType(file);
    if (!mime || !ACCEPTED_CONTENT_TYPES[kind].includes(mime)) {
      throw refusal('upload.wrongType', { extensions: extensionsOf(kind) });
    }
    const extension = extensionOf(row.name);
    const expected = EXTENSION_TYPES[extension];
    if (!expected || !expected.content.includes(mime)) {
      throw refusal('upload.extensionMismatch', { extension: extension || '—' });
    }
    if (await hasArchiveTail(file)) throw refusal('upload.polyglot');

    const checked: CheckedUpload = {
      uploadId: row.id,
      type,
      name: row.name,
      storageKey: row.storage_key,
      posterKey: null,
      contentType: expected.served,
      size: info.size,
      durationMs: null,
      width: null,
      height: null,
      codec: null,
      hasAudio: null,
    };
    if (kind === 'font') return checked;

    const probe = await probeMedia(file, kind);
    if (!probe.ok) throw refusal(probe.reason);
    Object.assign(checked, probe.facts);
    if (kind === 'audio') return checked;

    const out = await tempPath(ctx, '.webp');
    try {
      if (!(await makePoster(file, kind, checked.durationMs, out))) {
        throw refusal('upload.unreadable');
      }
      const posterKey = newFileKey('posters', ctx.now());
      await ctx.storage.put(posterKey, fs.createReadStream(out), { contentType: POSTER_TYPE });
      checked.posterKey = posterKey;
    } finally {
      await fsp.rm(out, { force: true });
    }
    return checked;
  } finally {
    await dispose();
  }
}

/**
 * Marks a checked upload used (`uploaded → used`, a conditional update): an upload becomes at
 * most one resource. False when it was claimed, refused or swept meanwhile. Call it in the
 * transaction that inserts the resource.
 */
export function claimUpload(db: Executor, uploadId: number): Promise<boolean> {
  return moveUpload(db, uploadId, 'uploaded', 'used');
}
