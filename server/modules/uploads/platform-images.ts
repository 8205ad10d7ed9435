import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  PLATFORM_IMAGE_EXTENSION,
  PLATFORM_IMAGE_MAX_SIDE,
  PLATFORM_IMAGE_NAME,
  PLATFORM_IMAGE_PATH,
  PLATFORM_IMAGE_RULES,
  PLATFORM_IMAGE_TYPES,
  type PlatformImagePurpose,
} from '../../../src/api/contract/platform-image-rules';
import { platformImageFields, type PlatformImage } from '../../../src/api/contract/platform-images';
import type { AppContext, AuthContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { AppError, refuse } from '../../platform/http/errors';
import type { MessageId } from '../../platform/i18n';
import { parseInput } from '../../platform/http/validation';
import { newFileKey } from '../../platform/storage/keys';
import { localCopy } from './check-upload';
import { drain, readFormFile, storeFormFile } from './form-file';
import { checkQuota } from './grant';
import { hasArchiveTail, probeMedia, sniffType } from './media-probe';
import { checkFileName, extensionOf } from './upload-rules';

/**
 * Platform images (docs/domain.md §8 "Platform images", docs/decisions.md "Platform images"): the
 * logo and favicon of a domain and the images of articles and agreements, uploaded by the admin
 * (the platform's, owner 0) or by a partner (its own content images), checked by their bytes
 * before anything is recorded, and served to anyone at `/api/v1/images/<name>`.
 */

/** The owner of the admin's images: the platform (as articles: docs/domain.md §24). */
export const PLATFORM_IMAGE_OWNER = 0;

const largest = Math.max(...Object.values(PLATFORM_IMAGE_RULES).map((r) => r.maxBytes));
/** The parser's limit: one byte past the largest purpose's (each purpose's own is the storage's). */
const PLATFORM_IMAGE_FORM_LIMITS = { fileSize: largest + 1, fields: 2 } as const;

const extensionsOf = (purpose: PlatformImagePurpose) =>
  PLATFORM_IMAGE_RULES[purpose].extensions.join(' ');

/** Who owns what a caller uploads: the admin the platform's, a partner its own. */
const imageOwnerOf = (auth: AuthContext): number =>
  auth.role === 'admin' ? PLATFORM_IMAGE_OWNER : auth.user.id;

/**
 * `POST /upload/platform_image` (multipart: `purpose`, then `file`). The name must have one of the
 * purpose's extensions and no path; the bytes (streamed to storage, at most the purpose's size)
 * must really be that type (magic bytes, the extension's own type), hide no archive at their end,
 * decode as a picture (ffprobe) of at most 8192 px a side. A partner uploads content images only,
 * within its storage quota; the admin's images are the platform's (no quota). A refused file is
 * deleted; nothing is recorded.
 */
export async function uploadPlatformImage(
  ctx: AppContext,
  auth: AuthContext,
  request: FastifyRequest,
  audit: AuditTrail,
): Promise<PlatformImage> {
  const { fields, part } = await readFormFile(request, PLATFORM_IMAGE_FORM_LIMITS);
  const original = part.filename ?? '';
  let purpose: PlatformImagePurpose;
  let extension: string;
  try {
    ({ purpose } = parseInput(platformImageFields, { purpose: fields.purpose }, request.locale));
    if (auth.role !== 'admin' && purpose !== 'content') {
      throw new AppError('image.purposeRefused', {}, 403);
    }
    checkFileName(original);
    extension = extensionOf(original);
    if (!PLATFORM_IMAGE_RULES[purpose].extensions.includes(extension)) {
      throw refuse('upload.badExtension', { extensions: extensionsOf(purpose) });
    }
  } catch (error) {
    drain(part);
    throw error;
  }

  const now = ctx.now();
  const storageKey = newFileKey('images', now);
  const size = await storeFormFile(ctx, part, storageKey, {
    contentType: PLATFORM_IMAGE_TYPES[extension]!,
    filename: original,
    maxBytes: PLATFORM_IMAGE_RULES[purpose].maxBytes,
  });
  try {
    const { contentType, width, height } = await checkImageBytes(
      ctx,
      storageKey,
      purpose,
      extension,
    );
    const name = `${randomBytes(16).toString('hex')}.${PLATFORM_IMAGE_EXTENSION[contentType]}`;
    const url = `${PLATFORM_IMAGE_PATH}${name}`;
    const owner = imageOwnerOf(auth);
    audit.change(null, { purpose, name: original, size, content_type: contentType, url });
    await runInTransaction(
      ctx.db,
      async (trx) => {
        // A partner's images are its files: they count against its storage quota.
        if (owner !== PLATFORM_IMAGE_OWNER) await checkQuota(ctx, trx, owner, size);
        const row = await trx
          .insertInto('platform_images')
          .values({
            name,
            owner_id: owner,
            purpose,
            storage_key: storageKey,
            content_type: contentType,
            size,
            width,
            height,
            original_name: original,
            created_by: auth.user.id,
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        audit.target(Number(row.id));
      },
      { audit },
    );
    return { url, purpose, content_type: contentType, size, width, height };
  } catch (error) {
    await ctx.storage.delete(storageKey).catch(() => undefined);
    throw error;
  }
}

/** What the stored bytes really are, or the refusal (the caller deletes them). */
async function checkImageBytes(
  ctx: AppContext,
  key: string,
  purpose: PlatformImagePurpose,
  extension: string,
): Promise<{ contentType: string; width: number; height: number }> {
  const { file, dispose } = await localCopy(ctx, key);
  try {
    const mime = await sniffType(file);
    const accepted = PLATFORM_IMAGE_RULES[purpose].extensions.map((e) => PLATFORM_IMAGE_TYPES[e]);
    if (!mime || !accepted.includes(mime)) {
      throw refuse('upload.wrongType', { extensions: extensionsOf(purpose) });
    }
    if (mime !== PLATFORM_IMAGE_TYPES[extension]) {
      throw refuse('upload.extensionMismatch', { extension });
    }
    if (await hasArchiveTail(file)) throw refuse('upload.polyglot');
    const probe = await probeMedia(file, 'image');
    if (!probe.ok) throw refuse('upload.unreadable');
    const width = probe.facts.width ?? 0;
    const height = probe.facts.height ?? 0;
    if (width > PLATFORM_IMAGE_MAX_SIDE || height > PLATFORM_IMAGE_MAX_SIDE) {
      throw refuse('image.tooManyPixels', { width, height, max: PLATFORM_IMAGE_MAX_SIDE });
    }
    return { contentType: mime, width, height };
  } finally {
    await dispose();
  }
}

/** The name of a platform image's address (`/api/v1/images/<name>`), or null for another. */
function nameOf(url: string): string | null {
  if (!url.startsWith(PLATFORM_IMAGE_PATH)) return null;
  const name = url.slice(PLATFORM_IMAGE_PATH.length);
  return PLATFORM_IMAGE_NAME.test(name) ? name : null;
}

/**
 * Refuses (`message`) unless every address names a platform image uploaded for `purpose` by one
 * of `owners` (docs/domain.md §8: an image is used for what it was uploaded for, by its owner; a
 * partner may also use the platform's). '' is skipped.
 */
export async function checkImageUse(
  db: Executor,
  urls: readonly string[],
  purpose: PlatformImagePurpose,
  owners: readonly number[],
  message: MessageId,
): Promise<void> {
  const wanted = urls.filter((url) => url !== '');
  if (wanted.length === 0) return;
  const names = wanted.map(nameOf);
  if (names.some((name) => name === null)) throw refuse(message);
  const unique = [...new Set(names as string[])];
  const found = await db
    .selectFrom('platform_images')
    .select('name')
    .where('name', 'in', unique)
    .where('purpose', '=', purpose)
    .where('owner_id', 'in', [...owners])
    .execute();
  if (found.length !== unique.length) throw refuse(message);
}

/** A platform image by its public name, or undefined. */
export function findPlatformImage(db: Executor, name: string) {
  if (!PLATFORM_IMAGE_NAME.test(name)) return Promise.resolve(undefined);
  return db
    .selectFrom('platform_images')
    .select(['storage_key', 'content_type', 'size'])
    .where('name', '=', name)
    .executeTakeFirst();
}
