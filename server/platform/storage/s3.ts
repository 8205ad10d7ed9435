import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config';
import type { Clock } from '../lib/clock';
import { checkKey } from './keys';
import {
  cleanFilename,
  contentDisposition,
  FileTooLargeError,
  GRANT_PART_URLS,
  RangeNotSatisfiableError,
  READ_URL_SECONDS,
  UPLOAD_GRANT_SECONDS,
  type DirectUploads,
  type FileInfo,
  type FileStorage,
  type PartUrl,
} from './storage';

const MiB = 1024 * 1024;
/** Parts of `put`'s own multipart uploads, and the default part size of a multipart grant. */
const PART_SIZE = 8 * MiB;
/** S3's smallest part (all but the last) and its most parts per upload. */
const MIN_PART_SIZE = 5 * MiB;
const MAX_PARTS = 10_000;

/** The S3 client for `config`: path-style and checksums only where required (non-AWS servers). */
export function s3Client(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    // A non-AWS server (MinIO, s3rver, a cloud's S3 API) is addressed by path, not by a bucket
    // subdomain; AWS itself takes both.
    forcePathStyle: !!config.endpoint,
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined,
    // The SDK's default since 3.729 adds CRC32 checksums that most non-AWS servers reject or
    // do not return (docs/decisions.md).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    error.$metadata.httpStatusCode === 404);

/**
 * What is stored with an object: its content type, its Content-Disposition (S3 answers both on
 * every GET, presigned ones included) and the user's name, percent-encoded (S3 metadata is ASCII).
 */
function objectHeaders(key: string, contentType: string, filename: string | undefined) {
  const name = cleanFilename(filename) || undefined;
  return {
    name,
    headers: {
      ContentType: contentType,
      ContentDisposition: contentDisposition({ key, contentType, filename: name }),
      Metadata: name ? { filename: encodeURIComponent(name) } : undefined,
    },
  };
}

function filenameOf(metadata: Record<string, string> | undefined): string | undefined {
  const raw = metadata?.filename;
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The total size in `Content-Range: bytes 0-9/100`. */
const totalOf = (contentRange: string | undefined) => Number(contentRange?.split('/')[1]);

/**
 * S3-compatible object storage (`S3_BUCKET`…): reads through S3's presigned GET URLs, uploads from
 * the browser through presigned PUT or presigned multipart part URLs (no upload passes the API).
 */
export function createS3Storage(config: S3Config, now: Clock, client = s3Client(config)) {
  const Bucket = config.bucket;
  /** Presigning options: signed at the app's clock (tests move it), valid `expiresIn` seconds. */
  const signing = (expiresIn: number) => ({ expiresIn, signingDate: new Date(now()) });

  const stat = async (key: string): Promise<FileInfo | null> => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: checkKey(key) }));
      return {
        key,
        size: head.ContentLength ?? 0,
        contentType: head.ContentType ?? 'application/octet-stream',
        filename: filenameOf(head.Metadata),
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  const partUrls = async (
    key: string,
    uploadId: string,
    partNumbers: readonly number[],
    expiresIn = UPLOAD_GRANT_SECONDS,
  ): Promise<PartUrl[]> =>
    Promise.all(
      partNumbers.map(async (partNumber) => ({
        partNumber,
        url: await getSignedUrl(
          client,
          new UploadPartCommand({
            Bucket,
            Key: checkKey(key),
            UploadId: uploadId,
            PartNumber: partNumber,
          }),
          signing(expiresIn),
        ),
      })),
    );

  const directUploads: DirectUploads = {
    async presignPut(key, { contentType, size, filename, expiresIn = UPLOAD_GRANT_SECONDS }) {
      const { headers } = objectHeaders(key, contentType, filename);
      const command = new PutObjectCommand({
        Bucket,
        Key: checkKey(key),
        ContentLength: size,
        ...headers,
      });
      // Content-Length and Content-Disposition are signed by default, Content-Type only when
      // asked: the uploader can send no other size or type than the grant's.
      const url = await getSignedUrl(client, command, {
        ...signing(expiresIn),
        signableHeaders: new Set(['content-type']),
      });
      return {
        kind: 'put',
        key,
        url,
        headers: {
          'content-type': headers.ContentType,
          'content-disposition': headers.ContentDisposition,
        },
        expiresAt: now() + expiresIn * 1000,
      };
    },

    async createMultipart(key, spec) {
      const { contentType, size, filename, expiresIn = UPLOAD_GRANT_SECONDS } = spec;
      const partSize = Math.max(
        MIN_PART_SIZE,
        spec.partSize ?? PART_SIZE,
        Math.ceil(size / MAX_PARTS),
      );
      const { headers } = objectHeaders(key, contentType, filename);
      const created = await client.send(
        new CreateMultipartUploadCommand({ Bucket, Key: checkKey(key), ...headers }),
      );
      const uploadId = created.UploadId;
      if (!uploadId) throw new Error('the object storage started no multipart upload');
      const partCount = Math.max(1, Math.ceil(size / partSize));
      // Signing costs ~3 ms a URL: a 500 MB video (63 parts) gets them all, a huge file the first.
      const numbers = Array.from({ length: Math.min(partCount, GRANT_PART_URLS) }, (_, i) => i + 1);
      return {
        kind: 'multipart',
        key,
        uploadId,
        partSize,
        partCount,
        parts: await partUrls(key, uploadId, numbers, expiresIn),
        expiresAt: now() + expiresIn * 1000,
      };
    },

    partUrls,

    async completeMultipart(key, uploadId, parts) {
      const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: checkKey(key),
          UploadId: uploadId,
          MultipartUpload: {
            Parts: sorted.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })),
          },
        }),
      );
      const info = await stat(key);
      if (!info) throw new Error(`the completed upload of ${key} is missing`);
      return info;
    },

    async abortMultipart(key, uploadId) {
      await client.send(
        new AbortMultipartUploadCommand({ Bucket, Key: checkKey(key), UploadId: uploadId }),
      );
    },
  };

  const storage: FileStorage = {
    kind: 's3',
    directUploads,
    localFiles: null,

    async put(key, body, { contentType, filename, maxBytes }) {
      const Key = checkKey(key);
      const { name, headers } = objectHeaders(key, contentType, filename);
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let total = 0;
      let uploadId: string | undefined;
      const parts: CompletedPart[] = [];
      // Parts of PART_SIZE as the stream arrives: memory stays at one part, whatever the size.
      const sendPart = async () => {
        uploadId ??= (
          await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ...headers }))
        ).UploadId;
        const PartNumber = parts.length + 1;
        const Body = Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
        const { ETag } = await client.send(
          new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body }),
        );
        parts.push({ PartNumber, ETag });
      };
      try {
        for await (const chunk of Buffer.isBuffer(body)
          ? [body]
          : (body as AsyncIterable<Buffer>)) {
          total += chunk.length;
          if (maxBytes !== undefined && total > maxBytes) throw new FileTooLargeError(maxBytes);
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes >= PART_SIZE) await sendPart();
        }
        if (uploadId === undefined) {
          await client.send(
            new PutObjectCommand({ Bucket, Key, Body: Buffer.concat(pending), ...headers }),
          );
        } else {
          if (pendingBytes > 0) await sendPart();
          await client.send(
            new CompleteMultipartUploadCommand({
              Bucket,
              Key,
              UploadId: uploadId,
              MultipartUpload: { Parts: parts },
            }),
          );
        }
      } catch (error) {
        if (uploadId !== undefined) {
          await client
            .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId }))
            .catch(() => undefined);
        }
        throw error;
      }
      return { key, size: total, contentType, filename: name };
    },

    async get(key, range) {
      let object;
      try {
        object = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: checkKey(key),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
      } catch (error) {
        if (isMissing(error)) return null;
        if (
          range &&
          error instanceof S3ServiceException &&
          error.$metadata.httpStatusCode === 416
        ) {
          throw new RangeNotSatisfiableError((await stat(key))?.size ?? 0);
        }
        throw error;
      }
      const served =
        range && object.ContentRange ? /bytes (\d+)-(\d+)\//.exec(object.ContentRange) : null;
      const info: FileInfo = {
        key,
        size: served ? totalOf(object.ContentRange) : (object.ContentLength ?? 0),
        contentType: object.ContentType ?? 'application/octet-stream',
        filename: filenameOf(object.Metadata),
      };
      return {
        info,
        range: served ? { start: Number(served[1]), end: Number(served[2]) } : undefined,
        body: object.Body as Readable,
      };
    },

    stat,

    async exists(key) {
      return (await stat(key)) !== null;
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },

    async signedReadUrl(key, expiresIn = READ_URL_SECONDS, options = {}) {
      const command = new GetObjectCommand({
        Bucket,
        Key: checkKey(key),
        // As the local route answers: the holder's browser may keep it while the URL lives.
        ResponseCacheControl: `private, max-age=${expiresIn}`,
        // A download link: an attachment under the given name (signed with the rest).
        ...(options.download === undefined
          ? {}
          : {
              ResponseContentDisposition: contentDisposition(
                { key, contentType: 'application/octet-stream', filename: undefined },
                options.download,
              ),
            }),
      });
      const url = await getSignedUrl(client, command, signing(expiresIn));
      return { url, expiresAt: now() + expiresIn * 1000 };
    },
  };
  return storage;
}
