import type { Readable } from 'node:stream';

/**
 * File storage (docs/architecture.md rules 7–8): one interface, two adapters — local disk under
 * `DATA_DIR/files` (default, server/platform/storage/local.ts) and S3-compatible object storage
 * (`S3_BUCKET`…, server/platform/storage/s3.ts). Keys are made by the server (server/platform/storage/keys.ts),
 * never from a user's file name.
 */

/** What the storage knows of a stored file. */
export interface FileInfo {
  key: string;
  size: number;
  /** The content type stored with the file (the upload checks it; it is never guessed later). */
  contentType: string;
  /** The name a download is saved under (the user's name, for display only; never a path). */
  filename: string | undefined;
}

/** Bytes `start` to `end`, both included (as in HTTP's Range). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileRead {
  info: FileInfo;
  /** The bytes `body` holds when a range was asked for (its end clipped to the file). */
  range: ByteRange | undefined;
  body: Readable;
}

export interface PutOptions {
  contentType: string;
  filename?: string;
  /** More bytes than this refuse the put (`FileTooLargeError`) and nothing is kept. */
  maxBytes?: number;
}

export interface SignedUrl {
  url: string;
  /** Epoch ms after which the URL no longer reads the file. */
  expiresAt: number;
}

export interface ReadUrlOptions {
  /** Serve as an attachment saved under this name (cleaned as a display name). */
  download?: string;
  /**
   * A URL this server's own processes read (a render's input): the bucket's own address, never
   * the CDN in front of it (docs/domain.md "System init": object storage).
   */
  direct?: boolean;
}

/** One part's presigned PUT URL of a multipart upload. */
export interface PartUrl {
  partNumber: number;
  url: string;
}

/** A part the uploader sent: its number and the ETag its PUT answered with. */
export interface UploadedPart {
  partNumber: number;
  etag: string;
}

/**
 * What a browser needs to upload a file without going through the API's body parser:
 * - `put`: one presigned PUT to object storage (the headers are signed: send exactly these);
 * - `multipart`: object storage's multipart upload — PUT each `partSize` slice to its part URL,
 *   keep each answer's ETag, then the server completes (or aborts) the upload;
 * - `tus`: the local disk's resumable endpoint, with a short-lived grant token in a
 *   header (never the session token).
 * `expiresAt`: epoch ms; the URLs or the token are refused after it.
 */
export type UploadGrant =
  | { kind: 'put'; key: string; url: string; headers: Record<string, string>; expiresAt: number }
  | {
      kind: 'multipart';
      key: string;
      uploadId: string;
      partSize: number;
      /** Parts the file is cut into (the last may be shorter). */
      partCount: number;
      /** URLs of the first parts (at most `GRANT_PART_URLS`); `partUrls` signs the others. */
      parts: PartUrl[];
      expiresAt: number;
    }
  | {
      kind: 'tus';
      key: string;
      endpoint: string;
      headers: Record<string, string>;
      expiresAt: number;
    };

export interface UploadSpec {
  contentType: string;
  /** The declared size in bytes (a presigned PUT signs it: another length is refused). */
  size: number;
  filename?: string;
  /** Seconds the URLs stay usable (default `UPLOAD_GRANT_SECONDS`). */
  expiresIn?: number;
}

/** Direct uploads from the browser to object storage, authorised by presigned URLs. */
export interface DirectUploads {
  presignPut(key: string, spec: UploadSpec): Promise<Extract<UploadGrant, { kind: 'put' }>>;
  /** Starts a multipart upload and presigns its first parts' URLs (parts of `partSize` bytes). */
  createMultipart(
    key: string,
    spec: UploadSpec & { partSize?: number },
  ): Promise<Extract<UploadGrant, { kind: 'multipart' }>>;
  /** Fresh part URLs (an upload resumed after its URLs expired). */
  partUrls(
    key: string,
    uploadId: string,
    partNumbers: readonly number[],
    expiresIn?: number,
  ): Promise<PartUrl[]>;
  completeMultipart(
    key: string,
    uploadId: string,
    parts: readonly UploadedPart[],
  ): Promise<FileInfo>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Stores a stream under `key` (replacing what was there) and answers what was stored. */
  put(key: string, body: Readable | Buffer, options: PutOptions): Promise<FileInfo>;
  /**
   * The file's bytes, or null when there is no such file. A `range` with `start` past the last
   * byte throws `RangeNotSatisfiableError`; its `end` is clipped to the file.
   */
  get(key: string, range?: ByteRange): Promise<FileRead | null>;
  stat(key: string): Promise<FileInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the file; no error when there is none. */
  delete(key: string): Promise<void>;
  /**
   * A URL that reads this one file (with Range) until it expires; no session needed. With
   * `download`, the reply is an attachment saved under that name (a "download" link that works
   * across origins, where the `download` attribute of a link does not).
   */
  signedReadUrl(key: string, expiresIn?: number, options?: ReadUrlOptions): Promise<SignedUrl>;
  /** Object storage's presigned uploads; null for local disk (its grant is tus). */
  readonly directUploads: DirectUploads | null;
  /** The local disk's files as paths on this machine (ffprobe reads them); null for S3. */
  readonly localFiles: LocalFiles | null;
}

/** What only the local disk offers: its files' paths, and taking in a finished file. */
export interface LocalFiles {
  /** Where the key's bytes are (whether or not the file exists). */
  path(key: string): string;
  /**
   * Moves a finished file of this machine under `key` (a rename on the same file system, else a
   * copy), with its content type and name, and answers what was stored. The file is gone after.
   */
  adopt(key: string, file: string, options: PutOptions): Promise<FileInfo>;
}

/** Signed read URLs live 1 hour by default: a preview player seeks with the same URL. */
export const READ_URL_SECONDS = 3600;
/** Part URLs a multipart grant carries; the uploader asks for the next ones as it goes. */
export const GRANT_PART_URLS = 100;
/** Upload grants live 1 hour (docs/domain.md §8). */
export const UPLOAD_GRANT_SECONDS = 3600;

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

export class RangeNotSatisfiableError extends Error {
  constructor(readonly size: number) {
    super(`the range starts past the end of the file (${size} bytes)`);
    this.name = 'RangeNotSatisfiableError';
  }
}

const MEDIA = /^(image|video|audio)\//i;

/**
 * `Content-Disposition` of a stored file: `inline` for media (shown by the browser's player or
 * image viewer), `attachment` for anything else; the name as a plain ASCII fallback and as UTF-8
 * (RFC 5987 / 6266 `filename*`).
 */
export function contentDisposition(
  info: Pick<FileInfo, 'key' | 'contentType' | 'filename'>,
  download?: string,
) {
  const name =
    cleanFilename(download) ||
    cleanFilename(info.filename) ||
    info.key.slice(info.key.lastIndexOf('/') + 1);
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const utf8 = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  const type = download === undefined && MEDIA.test(info.contentType) ? 'inline' : 'attachment';
  return `${type}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** A user's file name as a display name: no control characters, no path, at most 200 chars. */
export function cleanFilename(name: string | undefined): string {
  if (!name) return '';
  const base =
    name
      .replace(/[\p{Cc}\p{Cf}]/gu, '')
      .split(/[/\\]/)
      .pop() ?? '';
  const trimmed = base.trim().slice(0, 200);
  return trimmed === '.' || trimmed === '..' ? '' : trimmed;
}
