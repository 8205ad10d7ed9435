import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import { API_PREFIX } from '../../platform/http/policy';
import { AppError, refuse } from '../../platform/http/errors';
import { zipLength, ZIP_MAX_BYTES, type ZipEntry } from '../../platform/lib/zip-stream';
import { fileUrlSecret } from '../../platform/storage/create';
import type { FileStore } from '../../platform/storage/places';
import { READ_URL_SECONDS } from '../../platform/storage/storage';

/**
 * "Download all" of a video task (docs/domain.md §9, docs/decisions.md "Download all as one
 * ZIP"): `GET /video_task/download_all?id&exp&sig` streams a ZIP of the task's done outputs. The
 * link is signed like a single output's download link (HMAC-SHA256 with `FILE_URL_SECRET`, one
 * hour, no session token in it), binding the task, its owner and the expiry; the detail and the
 * list hand it out once an output is done.
 */

const mac = (secret: string, taskId: number, ownerId: number, exp: number) =>
  createHmac('sha256', secret)
    .update(`video-task-zip\n${taskId}\n${ownerId}\n${exp}`)
    .digest('base64url');

/** The signed link of a task's ZIP, valid READ_URL_SECONDS from `now`. */
export function downloadAllUrl(ctx: AppContext, taskId: number, ownerId: number): string {
  const exp = Math.ceil((ctx.now() + READ_URL_SECONDS * 1000) / 1000);
  const sig = mac(fileUrlSecret(ctx.config), taskId, ownerId, exp);
  return `${API_PREFIX}/video_task/download_all?id=${taskId}&exp=${exp}&sig=${sig}`;
}

/** A missing task, a wrong or expired signature: one answer, so none can be told apart. */
const notFound = () => new AppError('common.notFound', {}, 404);

/** Characters a file name in an archive must not hold (separators, controls, Windows' reserved). */
const UNSAFE = /[/\\:*?"<>|\p{Cc}\p{Cf}]/gu;
const entryName = (task: string, idx: number) =>
  `${task.replace(UNSAFE, '_').slice(0, 80) || 'video'}-${idx}.mp4`;

export interface TaskZip {
  filename: string;
  length: number;
  /** Its entries, in order (server/platform/lib/zip-stream.ts `writeZip` writes them). */
  entries: ZipEntry[];
  /** The entries' date. */
  at: Date;
}

/**
 * The ZIP of task `query.id`'s done outputs (index order, each once), after the signature
 * checks out against the task's owner. Refused: no done output; an archive over 4 GiB.
 */
export async function downloadAll(
  ctx: AppContext,
  query: { id?: unknown; exp?: unknown; sig?: unknown },
): Promise<TaskZip> {
  const { id, exp, sig } = query;
  if (typeof id !== 'string' || !/^\d{1,12}$/.test(id)) throw notFound();
  if (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string') {
    throw notFound();
  }
  if (Number(exp) * 1000 <= ctx.now()) throw notFound();
  const taskId = Number(id);
  const task = await ctx.db
    .selectFrom('video_tasks')
    .select(['id', 'owner_id', 'name'])
    .where('id', '=', taskId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const expected = Buffer.from(
    mac(fileUrlSecret(ctx.config), taskId, Number(task?.owner_id ?? 0), Number(exp)),
  );
  const given = Buffer.from(sig);
  if (!task || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw notFound();
  }
  const outputs = await ctx.db
    .selectFrom('video_outputs')
    .select(['idx', 'storage_key', 'size', 'crc32'])
    .where('task_id', '=', taskId)
    .where('status', '=', 'done')
    .where('storage_key', 'is not', null)
    .orderBy('idx')
    .execute();
  if (outputs.length === 0) throw refuse('videoTask.nothingToDownload');
  // Sizes first (a stat each): the archive's length is known before its first byte, and a lost
  // file answers an error instead of a cut archive.
  const entries: ZipEntry[] = await Promise.all(
    outputs.map(async (o) => {
      const entry = await outputEntry(ctx.storage, {
        name: entryName(task.name, Number(o.idx)),
        key: o.storage_key!,
        size: o.size === null ? null : Number(o.size),
        crc32: o.crc32 === null ? null : Number(o.crc32),
      });
      if (!entry) throw notFound();
      if (entry.crc === undefined && o.crc32 !== null) {
        ctx.log.warn(
          { taskId, idx: o.idx, key: o.storage_key },
          'video output file is not the size it was stored with: its CRC-32 is computed again',
        );
      }
      return entry;
    }),
  );
  const length = zipLength(entries);
  if (length > ZIP_MAX_BYTES) throw refuse('videoTask.zipTooLarge');
  return {
    filename: `${task.name}.zip`,
    length,
    entries,
    at: new Date(ctx.now()),
  };
}

/** A stored output as "download all" reads it: its row's size and CRC-32 (null: not known). */
export interface StoredOutput {
  /** Its name in the archive. */
  name: string;
  key: string;
  size: number | null;
  crc32: number | null;
}

/**
 * The archive entry of a stored output, or null when its file is gone. Its CRC-32 is the row's
 * (computed when the file was stored: no checksum pass) when the file is still the size the row
 * recorded; else (an older row, or a file changed since) it is computed as the bytes stream. A
 * file on this machine's disk is read in place, else it streams from its storage.
 */
export async function outputEntry(
  storage: Pick<FileStore, 'stat' | 'get' | 'localPath'>,
  output: StoredOutput,
): Promise<ZipEntry | null> {
  const { key } = output;
  const info = await storage.stat(key);
  if (!info) return null;
  const local = await storage.localPath(key);
  const trusted = output.crc32 !== null && output.size === info.size;
  return {
    name: output.name,
    size: info.size,
    crc: trusted ? output.crc32! : undefined,
    source: local
      ? { file: local }
      : {
          open: async () => {
            const read = await storage.get(key);
            if (!read) throw new Error(`video output file ${key} vanished`);
            return read.body;
          },
        },
  };
}
