/**
 * Uploads (docs/domain.md §21 `/upload/*`) and `POST /resource/add`; contract:
 * ./contract/resources.ts. The bytes go where the grant says: a resumable tus upload (local disk:
 * tus-js-client, loaded only when a transfer starts) or presigned S3 multipart part URLs (a small
 * uploader here: three parts at a time over XMLHttpRequest, progress from its upload events).
 * A transfer rejects with a {@link TransferFailure}: `retry` when the outcome is unknown (no
 * reply, 5xx), not when the server refused (4xx with its sentence).
 */
import type {
  QuotaReply,
  Resource,
  ResourceAddBody,
  UploadCompleteBody,
  UploadDoneReply,
  UploadTokenQuery,
  UploadTokenReply,
} from './contract/resources';
import { STORAGE_KEYS } from './contract/storage-keys';
import { currentLocale, get, post, type RequestOptions } from './http';

/** `GET /upload/generate_sts_token`'s query (contract: uploadTokenQuery). */
export type UploadGrantQuery = Omit<UploadTokenQuery, 'size'> & { size: number };

export function requestUploadGrant(
  query: UploadGrantQuery,
  options?: RequestOptions,
): Promise<UploadTokenReply> {
  return get<UploadTokenReply>('/upload/generate_sts_token', { ...query }, options);
}

/** Fresh part URLs of a multipart upload (`parts`: at most 100 part numbers). */
export function getPartUrls(
  query: { upload_key: string; parts: number[] },
  options?: RequestOptions,
): Promise<{ parts: { part_number: number; url: string }[] }> {
  return get(
    '/upload/part_urls',
    { upload_key: query.upload_key, parts: query.parts.join(',') },
    options,
  );
}

export function completeMultipart(
  body: UploadCompleteBody,
  options?: RequestOptions,
): Promise<UploadDoneReply> {
  return post<UploadDoneReply>('/upload/complete', body, options);
}

/** Finishes a complete upload into a resource (the server checks the content first). */
export function addResource(body: ResourceAddBody, options?: RequestOptions): Promise<Resource> {
  return post<Resource>('/resource/add', body, options);
}

export function getQuota(options?: RequestOptions): Promise<QuotaReply> {
  return get<QuotaReply>('/upload/quota', undefined, options);
}

// ---------------------------------------------------------------------------------------------
// Transfers

/** Why a transfer stopped: `msg` a message id or the server's sentence. */
export interface TransferFailure {
  msg: string;
  retry: boolean;
}

export interface TransferJob {
  file: Blob;
  grant: UploadTokenReply;
  /** Multipart: the parts already stored (skipped). */
  parts: { part_number: number; etag: string }[];
  progress: (sent: number, total: number) => void;
  /** Multipart: each stored part, with all stored so far. */
  checkpoint: (parts: { part_number: number; etag: string }[]) => void;
}

export interface TransferControl {
  /** Settles when the server has every byte (a multipart upload is completed too). */
  done: Promise<void>;
  /** Stops sending; the bytes stored stay (a later transfer of the same grant resumes). */
  abort: () => void;
}

/** How long tus waits before each new try after a dropped connection (then it gives up). */
export const TUS_RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000];
/** tus PATCH size: small enough for proxies' body limits, large enough to be fast. */
const TUS_CHUNK_BYTES = 16 * 1024 * 1024;
/** Multipart parts sent at a time. */
export const PARALLEL_PARTS = 3;

/** The tus fingerprint of a grant: its upload, found again after a reload. */
const fingerprintOf = (grant: UploadTokenReply) => `${STORAGE_KEYS.uploads}:${grant.upload_key}`;

export function transfer(job: TransferJob): TransferControl {
  return job.grant.method === 'tus' ? tusTransfer(job) : multipartTransfer(job);
}

/** A refusal's sentence from a reply body (the envelope's `msg`, or short plain text). */
function bodyMessage(body: string | undefined): string | null {
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as { msg?: unknown };
    if (typeof parsed.msg === 'string' && parsed.msg) return parsed.msg;
  } catch {
    // not JSON
  }
  return body.length <= 200 ? body.trim() || null : null;
}

/** 4xx is the server's answer (final) except conflicts, locks and throttling, which pass. */
function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && ![408, 409, 423, 429].includes(status);
}

function tusTransfer(job: TransferJob): TransferControl {
  const { grant } = job;
  let stopped = false;
  let upload: { abort: () => Promise<void> } | null = null;
  const done = import('tus-js-client').then(
    ({ Upload, DetailedError }) =>
      new Promise<void>((resolve, reject) => {
        if (stopped || !grant.tus) return;
        const lang = currentLocale();
        const tus = new Upload(job.file, {
          endpoint: grant.tus.endpoint,
          headers: { ...grant.tus.headers, ...(lang ? { lang } : {}) },
          chunkSize: TUS_CHUNK_BYTES,
          retryDelays: TUS_RETRY_DELAYS,
          metadata: { filename: (job.file as File).name ?? '', filetype: job.file.type },
          fingerprint: async () => fingerprintOf(grant),
          storeFingerprintForResuming: true,
          removeFingerprintOnSuccess: true,
          onProgress: (sent, total) => job.progress(sent, total),
          onSuccess: () => resolve(),
          onError: (error) => {
            const status =
              error instanceof DetailedError ? (error.originalResponse?.getStatus() ?? 0) : 0;
            const body =
              error instanceof DetailedError ? error.originalResponse?.getBody() : undefined;
            reject(
              isRefusal(status)
                ? ({ msg: bodyMessage(body) ?? 'uploads.refused', retry: false } as TransferFailure)
                : ({ msg: 'uploads.lost', retry: true } as TransferFailure),
            );
          },
        });
        upload = tus;
        // After a reload or a pause: continue the upload the server already has.
        void tus.findPreviousUploads().then((previous) => {
          if (stopped) return;
          if (previous.length > 0) tus.resumeFromPreviousUpload(previous[0]);
          tus.start();
        });
      }),
  );
  return {
    done,
    abort: () => {
      stopped = true;
      void upload?.abort();
    },
  };
}

/** Forgets an unfinished upload: ends it on the server (tus) and drops what the browser kept. */
export async function discardTransfer(grant: UploadTokenReply): Promise<void> {
  if (grant.method !== 'tus' || !grant.tus) return;
  const { Upload, defaultOptions } = await import('tus-js-client');
  const storage = defaultOptions.urlStorage;
  const previous = await storage.findUploadsByFingerprint(fingerprintOf(grant));
  for (const p of previous) {
    await storage.removeUpload(p.urlStorageKey);
    if (p.uploadUrl) {
      await Upload.terminate(p.uploadUrl, { headers: grant.tus.headers, retryDelays: [] }).catch(
        () => {},
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// S3 multipart

type Part = { part_number: number; etag: string };

/** PUTs one part; resolves with its ETag (the bucket's CORS rule must expose it). */
function putPart(
  url: string,
  body: Blob,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      const etag = xhr.getResponseHeader('ETag');
      if (xhr.status >= 200 && xhr.status < 300 && etag) resolve(etag);
      else if (isRefusal(xhr.status) && xhr.status !== 403)
        reject({ msg: 'uploads.refused', retry: false } satisfies TransferFailure);
      // 403: the URL expired (a fresh one is asked for on retry); no ETag: the CORS rule.
      else reject({ msg: 'uploads.lost', retry: true } satisfies TransferFailure);
    };
    xhr.onerror = () => reject({ msg: 'uploads.lost', retry: true } satisfies TransferFailure);
    xhr.onabort = () => reject({ msg: 'http.aborted', retry: true } satisfies TransferFailure);
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** The URLs of `numbers`: the grant's, else fresh ones (in batches of 100). */
async function partUrls(
  calls: MultipartCalls,
  grant: UploadTokenReply,
  numbers: number[],
  fresh: boolean,
  signal: AbortSignal,
): Promise<Map<number, string>> {
  const urls = new Map<number, string>();
  if (!fresh) for (const p of grant.multipart?.parts ?? []) urls.set(p.part_number, p.url);
  const missing = numbers.filter((n) => !urls.has(n));
  for (let i = 0; i < missing.length; i += 100) {
    const batch = missing.slice(i, i + 100);
    const reply = await calls.getPartUrls(
      { upload_key: grant.upload_key, parts: batch },
      { signal, quiet: true },
    );
    for (const p of reply.parts) urls.set(p.part_number, p.url);
  }
  return urls;
}

/** The calls a multipart transfer makes (tests give fakes). */
export interface MultipartCalls {
  put: typeof putPart;
  getPartUrls: typeof getPartUrls;
  completeMultipart: typeof completeMultipart;
}
const LIVE_MULTIPART: MultipartCalls = { put: putPart, getPartUrls, completeMultipart };

export function multipartTransfer(
  job: TransferJob,
  calls: MultipartCalls = LIVE_MULTIPART,
): TransferControl {
  const { put } = calls;
  const controller = new AbortController();
  const { signal } = controller;
  const spec = job.grant.multipart;
  const run = async () => {
    if (!spec) throw { msg: 'uploads.refused', retry: false } satisfies TransferFailure;
    const size = job.file.size;
    const stored = new Map(job.parts.map((p) => [p.part_number, p.etag]));
    const partBytes = (n: number) => Math.min(spec.part_size, size - (n - 1) * spec.part_size);
    const todo: number[] = [];
    for (let n = 1; n <= spec.part_count; n++) if (!stored.has(n)) todo.push(n);
    const inFlight = new Map<number, number>();
    let storedBytes = [...stored.keys()].reduce((sum, n) => sum + partBytes(n), 0);
    const report = () => {
      let sent = storedBytes;
      inFlight.forEach((b) => (sent += b));
      job.progress(sent, size);
    };
    report();
    // A resumed upload's grant URLs may have expired: ask for fresh ones.
    const urls = await partUrls(calls, job.grant, todo, job.parts.length > 0, signal);
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const n = todo[next++];
        const start = (n - 1) * spec.part_size;
        inFlight.set(n, 0);
        const etag = await put(
          urls.get(n) ?? '',
          job.file.slice(start, start + partBytes(n)),
          (loaded) => {
            inFlight.set(n, loaded);
            report();
          },
          signal,
        );
        inFlight.delete(n);
        stored.set(n, etag);
        storedBytes += partBytes(n);
        report();
        job.checkpoint(
          [...stored].map(([part_number, e]) => ({ part_number, etag: e })).sort(byNumber),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_PARTS, todo.length) }, worker));
    const parts: Part[] = [...stored]
      .map(([part_number, etag]) => ({ part_number, etag }))
      .sort(byNumber);
    await calls.completeMultipart(
      { upload_key: job.grant.upload_key, parts },
      { signal, quiet: true },
    );
  };
  // One part refused or lost: the others stop too (what is stored stays for a retry).
  const done = run().catch((error: unknown) => {
    controller.abort();
    throw error;
  });
  return { done, abort: () => controller.abort() };
}

const byNumber = (a: Part, b: Part) => a.part_number - b.part_number;

// ---------------------------------------------------------------------------------------------
// The unfinished uploads kept across a page reload

/** The browser's storage of the upload records (null when storage is off). */
export function uploadRecordStore<T>(): { load(): T[]; save(records: T[]): void } {
  const storage = (() => {
    try {
      return globalThis.localStorage ?? null;
    } catch {
      return null;
    }
  })();
  return {
    load() {
      try {
        const value: unknown = JSON.parse(storage?.getItem(STORAGE_KEYS.uploads) ?? '[]');
        return Array.isArray(value) ? (value as T[]) : [];
      } catch {
        return [];
      }
    },
    save(records) {
      try {
        if (records.length === 0) storage?.removeItem(STORAGE_KEYS.uploads);
        else storage?.setItem(STORAGE_KEYS.uploads, JSON.stringify(records));
      } catch {
        // full or off: the upload goes on, it just cannot be resumed after a reload
      }
    },
  };
}
