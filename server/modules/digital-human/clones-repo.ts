import { sql, type SqlBool } from 'kysely';
import type { Locale } from '../../../src/api/contract/messages';
import type { AppContext } from '../../context';
import type { Condition } from '../../platform/db/conditions';
import type { Executor } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import { isMessageId, t } from '../../platform/i18n';
import type { MediaRef } from '../../integrations/digital-human/types';
import type { PutOptions } from '../../platform/storage/storage';
import { likePattern } from '../../platform/db/conditions';

/**
 * What image clones and voice clones share: the caller's source media (resources), the files the
 * work makes (storage), reasons, list filters. A resource of another user answers like a missing
 * one; a deleted resource is missing for a new clone, but its file stays while a clone refers to
 * it (`resource_refs`, task kinds below).
 */

/** `resource_refs.task_kind` of each clone table (the source files are kept while it exists). */
export const REF_KIND = {
  dh_image_clones: 'dh_image_clone',
  dh_voice_clones: 'dh_voice_clone',
} as const;

/** Signed input URLs (S3, HTTP vendor) outlive the longest clone. */
const INPUT_URL_SECONDS = 6 * 3600;

export interface SourceMedia {
  id: number;
  name: string;
  type: string;
  storage_key: string;
  content_type: string;
  size: number;
  duration_ms: number | null;
}

/**
 * A live resource of the owner's (not deleted, its file present), or a refusal alike for a
 * missing one and another user's (`digitalHuman.resourceMissing`).
 */
export async function ownMedia(db: Executor, ownerId: number, id: number): Promise<SourceMedia> {
  const row = await db
    .selectFrom('resources')
    .select(['id', 'name', 'type', 'storage_key', 'content_type', 'size', 'duration_ms'])
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('deleted_at', 'is', null)
    .where('file_deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw refuse('digitalHuman.resourceMissing', { id });
  return {
    ...row,
    id: Number(row.id),
    size: Number(row.size),
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
  };
}

/** The storage key of a resource a clone refers to (deleted or not; its file is kept by the ref). */
export async function sourceKey(db: Executor, resourceId: number): Promise<string | null> {
  const row = await db
    .selectFrom('resources')
    .select(['storage_key', 'file_deleted_at'])
    .where('id', '=', resourceId)
    .executeTakeFirst();
  return row && row.file_deleted_at === null ? row.storage_key : null;
}

/** Seconds rounded to 2 places (refusals). */
export const seconds2 = (ms: number) => Math.round(ms / 10) / 100;
/** Bytes as MB with one decimal (refusals). */
export const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

/**
 * An input for the provider: the local path (local disk) and a signed URL the vendor can fetch
 * (absolute: `PUBLIC_URL` before a local disk's relative `/api/v1/files/…`; S3's presigned URL as
 * it is).
 */
export async function mediaRefOf(ctx: AppContext, key: string): Promise<MediaRef> {
  const signed = await ctx.storage.signedReadUrl(key, INPUT_URL_SECONDS);
  const url = signed.url.startsWith('/')
    ? `${ctx.config.publicUrl.replace(/\/$/, '')}${signed.url}`
    : signed.url;
  const path = await ctx.storage.localPath(key);
  return path ? { path, url } : { url };
}

/** Stores a finished local file under `key` (a move on local disk, an upload to S3). */
export async function storeFile(
  ctx: AppContext,
  key: string,
  file: string,
  options: PutOptions,
): Promise<string> {
  await ctx.storage.storeFile(key, file, options);
  return key;
}

/** A row's failure reason in the reader's language (null unless it has one). */
export function reasonOf(
  locale: Locale,
  row: { status: string; reason_id: string | null; reason_params: string | null },
): string | null {
  if (row.status !== 'failed') return null;
  const id = row.reason_id ?? 'digitalHuman.reason.providerFailed';
  if (!isMessageId(id)) return id;
  const params = row.reason_params
    ? (JSON.parse(row.reason_params) as Record<string, string | number>)
    : {};
  return t(locale, id, params);
}

/** Keyword (name contains, its own % _ \ literal) and status filters of a clone list. */
export function cloneFilters(
  table: 'c',
  filter: { status?: string; keyword?: string },
): Condition[] {
  const out: Condition[] = [];
  if (filter.status) out.push(sql<SqlBool>`${sql.ref(`${table}.status`)} = ${filter.status}`);
  if (filter.keyword) {
    out.push(
      sql<SqlBool>`lower(${sql.ref(`${table}.name`)}) like ${likePattern(filter.keyword)} escape '\\'`,
    );
  }
  return out;
}

/** The stored file's content type by its extension (what providers write). */
export function contentTypeOf(file: string): string {
  const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  const types: Record<string, string> = {
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    mp4: 'video/mp4',
    wav: 'audio/wav',
    m4a: 'audio/mp4',
    mp3: 'audio/mpeg',
  };
  return types[ext] ?? 'application/octet-stream';
}

/** The file's extension with its dot (`.wav`), from a provider's output path. */
export const extOf = (file: string) => {
  const dot = file.lastIndexOf('.');
  return dot > file.lastIndexOf('/') ? file.slice(dot).toLowerCase() : '';
};
