import type { MultipartFile } from '@fastify/multipart';
import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { AppError, refuse } from '../../platform/http/errors';
import { FileTooLargeError } from '../../platform/storage/storage';
import { formatBytes } from './upload-rules';

/**
 * A multipart form with one file, read as a stream (never held in memory): the form upload
 * (`oss_upload`) and the platform image upload share it. The fields must come before the file, so
 * that the name's rules and the size limit are known before the bytes arrive.
 */

/** A form the parser cannot read (cut short, malformed, over its limits): the client's mistake. */
export function badForm(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const status = (error as { statusCode?: number }).statusCode;
  return new AppError('request.bad', {}, status && status >= 400 && status < 500 ? status : 400);
}

export interface FormFile {
  /** The text fields sent before the file, by name. */
  fields: Record<string, unknown>;
  part: MultipartFile;
}

/**
 * The fields up to the form's file, and the file part (its bytes not read yet). Busboy stops the
 * file one byte past `fileSize`; the storage's own limit refuses it. The name as sent: busboy would
 * drop a path silently, and a path is refused by the caller's name rule.
 */
export async function readFormFile(
  request: FastifyRequest,
  limits: { fileSize: number; fields: number },
): Promise<FormFile> {
  if (!request.isMultipart()) throw refuse('upload.fileMissing');
  const fields: Record<string, unknown> = {};
  let part: MultipartFile | undefined;
  try {
    for await (const next of request.parts({
      limits: { ...limits, files: 1, parts: limits.fields + 2 },
      preservePath: true,
    })) {
      if (next.type === 'file') {
        part = next;
        break;
      }
      fields[next.fieldname] = next.value;
    }
  } catch (error) {
    throw badForm(error);
  }
  if (!part) throw refuse('upload.fileMissing');
  return { fields, part };
}

/** Lets the rest of a refused request's file drain (its bytes are not wanted). */
export const drain = (part: MultipartFile) => part.file.resume();

/**
 * Streams the file part to the storage under `key` and answers its size. More than `maxBytes`
 * is refused (`upload.tooLarge`), an empty file too (`validation.fileSize`); nothing is kept then.
 */
export async function storeFormFile(
  ctx: AppContext,
  part: MultipartFile,
  key: string,
  options: { contentType: string; filename: string; maxBytes: number },
): Promise<number> {
  // An error of the file's own stream is the request's (cut short, malformed), not the storage's:
  // the storage reads a pass-through, so its own failures never show on the file's stream.
  const file = part.file;
  let streamError: unknown = file.errored ?? undefined;
  const body = new PassThrough();
  // The storage may attach to `body` only after an await (a directory made, a connection): an
  // error before that would be an unhandled 'error' event and end the process. It is kept in
  // `streamError` and answered below; the storage still sees `body` destroyed.
  body.on('error', () => undefined);
  file.on('error', (error) => {
    streamError = error;
    body.destroy(error);
  });
  if (streamError !== undefined) body.destroy(streamError as Error);
  else file.pipe(body);
  let size: number;
  try {
    ({ size } = await ctx.storage.put(key, body, options));
  } catch (error) {
    drain(part);
    await ctx.storage.delete(key).catch(() => undefined);
    const tooLarge =
      error instanceof FileTooLargeError ||
      (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';
    if (tooLarge) throw refuse('upload.tooLarge', { max: formatBytes(options.maxBytes) });
    if (streamError !== undefined) throw badForm(streamError);
    throw error;
  }
  if (size === 0) {
    await ctx.storage.delete(key);
    throw refuse('validation.fileSize');
  }
  return size;
}
