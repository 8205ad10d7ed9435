import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { S3Config } from '../config';
import { listCacheOf } from '../db/list-cache';
import type { Db } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { Sealer } from '../secrets/sealed';
import type { SecretStore } from '../secrets/store';
import { checkKey } from './keys';
import { createS3Storage } from './s3';
import type {
  ByteRange,
  DirectUploads,
  FileInfo,
  FileRead,
  FileStorage,
  LocalFiles,
  PutOptions,
  ReadUrlOptions,
  SignedUrl,
} from './storage';

/**
 * The app's files (`ctx.storage`, docs/decisions.md "Storage places"): new files go to the storage
 * in use now — the object storage of the system init settings (group `storage`) when an admin set
 * one, else the environment's (DATA_DIR/files, or `S3_BUCKET`…) — and every file is read, signed
 * and deleted where it was written, whatever is in use since:
 * - a file written to a bucket of the settings has a `file_places` row naming its
 *   `storage_places` row (endpoint, bucket, region and the AccessKey last used there, sealed);
 * - a file without one is the environment's (every file written before the settings named a
 *   bucket, or since they were cleared).
 * The storage in use is read from the settings at the next use after a change: at once in this
 * process and, on SQLite, in every process; on PostgreSQL another process (a worker, a second
 * API) sees it within PLACE_TTL_MS.
 */
export interface FileStore {
  /** Stores a stream under `key` in the storage in use now (replacing what was there). */
  put(key: string, body: Readable | Buffer, options: PutOptions): Promise<FileInfo>;
  /**
   * Stores a finished file of this machine under `key` in the storage in use now: moved into the
   * environment's local disk, else uploaded. The file is gone or left to the caller after.
   */
  storeFile(key: string, file: string, options: PutOptions): Promise<FileInfo>;
  get(key: string, range?: ByteRange): Promise<FileRead | null>;
  stat(key: string): Promise<FileInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the file where it is; no error when there is none. */
  delete(key: string): Promise<void>;
  signedReadUrl(key: string, expiresIn?: number, options?: ReadUrlOptions): Promise<SignedUrl>;
  /** Where `key`'s bytes are on this machine when it is on the local disk, else null. */
  localPath(key: string): Promise<string | null>;
  /**
   * The direct uploads of the storage in use now, for a new file `key` (which is from then on
   * that storage's): null when it is the local disk (its uploads are tus).
   */
  directUploadsFor(key: string): Promise<DirectUploads | null>;
  /** The direct uploads of the storage `key` was given to (a multipart upload's later calls). */
  directUploadsOf(key: string): Promise<DirectUploads | null>;
  /** The environment's local disk (tus uploads land there); null when it is object storage. */
  readonly localFiles: LocalFiles | null;
  /**
   * Whether a file may be elsewhere than the environment's storage: a bucket of the settings was
   * ever in use (none: every file is the environment's, no lookup needed).
   */
  mayBeElsewhere(): Promise<boolean>;
  /** What new files go to now: `environment`, or the settings' bucket. */
  inUse(): Promise<{ place: 'environment' } | { place: 'settings'; id: number; bucket: string }>;
}

/** How long another process's change of the storage settings may go unseen (PostgreSQL). */
export const PLACE_TTL_MS = 5_000;

/** The settings' storage fields that make a place (the CDN base is not one: it fronts the one in use). */
const PLACE_FIELDS = ['endpoint', 'region', 'bucket', 'access_key', 'secret_key'] as const;

export interface FileStoreDeps {
  db: Db;
  secrets: SecretStore;
  sealer: Sealer;
  /** The environment's storage: DATA_DIR/files or `S3_BUCKET` (tests: one of theirs). */
  environment: FileStorage;
  /** The environment's S3 settings (the defaults of the settings' fields). */
  environmentS3: S3Config | undefined;
  now: Clock;
  /** PLACE_TTL_MS unless a test shortens it. */
  ttlMs?: number;
}

interface Place {
  id: number;
  bucket: string;
  storage: FileStorage;
}

type InUse =
  | { kind: 'environment' }
  | ({
      kind: 'settings';
      /** The CDN base in front of the bucket, '' for none. */ cdnBase: string;
    } & Place);

/**
 * A signed read URL of the bucket as the CDN's (`cdnBase` + the key + the signature's query): the
 * CDN fronts the bucket (its origin the bucket's address, the query string forwarded), so the
 * bucket checks the same signature.
 */
export function throughCdn(cdnBase: string, key: string, signed: string): string {
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${cdnBase.replace(/\/+$/, '')}/${path}${new URL(signed).search}`;
}

const sealedAt = (id: number) => ({ table: 'storage_places', field: 'secret_key', row: id });

export function createFileStore(deps: FileStoreDeps): FileStore {
  const { db, environment, now } = deps;
  const ttl = deps.ttlMs ?? PLACE_TTL_MS;
  /** Adapters by place id and what they were built from (a rotated key builds another). */
  const adapters = new Map<number, { fingerprint: string; storage: FileStorage }>();

  const adapterOf = (id: number, s3: S3Config): FileStorage => {
    const fingerprint = createHash('sha256').update(JSON.stringify(s3)).digest('hex');
    const known = adapters.get(id);
    if (known?.fingerprint === fingerprint) return known.storage;
    const storage = createS3Storage(s3, now);
    adapters.set(id, { fingerprint, storage });
    return storage;
  };

  /** The settings' S3 storage (stored values over the environment's), or null when none is set. */
  async function settingsS3(): Promise<S3Config | null> {
    const stored = (await deps.secrets.list()).filter(
      (r) => r.kind === 'storage' && (PLACE_FIELDS as readonly string[]).includes(r.name),
    );
    if (stored.length === 0) return null;
    const env = deps.environmentS3;
    const value = async (name: (typeof PLACE_FIELDS)[number], fallback: string | undefined) =>
      stored.some((r) => r.name === name)
        ? ((await deps.secrets.read('storage', name)) ?? fallback)
        : fallback;
    const [endpoint, region, bucket, accessKeyId, secretAccessKey] = await Promise.all([
      value('endpoint', env?.endpoint),
      value('region', env?.region),
      value('bucket', env?.bucket),
      value('access_key', env?.accessKeyId),
      value('secret_key', env?.secretAccessKey),
    ]);
    if (!bucket) return null;
    return { endpoint, region: region || 'us-east-1', bucket, accessKeyId, secretAccessKey };
  }

  /** The place row of `s3` (made, or its region and AccessKey brought up to date). */
  async function placeFor(s3: S3Config): Promise<Place> {
    const endpoint = s3.endpoint ?? '';
    const find = () =>
      db
        .selectFrom('storage_places')
        .selectAll()
        .where('endpoint', '=', endpoint)
        .where('bucket', '=', s3.bucket)
        .executeTakeFirst();
    let row = await find();
    const at = now();
    if (!row) {
      await db
        .insertInto('storage_places')
        .values({
          endpoint,
          bucket: s3.bucket,
          region: s3.region,
          access_key: null,
          secret_sealed: null,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.columns(['endpoint', 'bucket']).doNothing())
        .execute();
      row = (await find())!;
    }
    const id = Number(row.id);
    const access = s3.accessKeyId ?? null;
    const secret =
      row.secret_sealed === null ? null : deps.sealer.open(row.secret_sealed, sealedAt(id));
    if (
      row.region !== s3.region ||
      row.access_key !== access ||
      secret !== (s3.secretAccessKey ?? null)
    ) {
      await db
        .updateTable('storage_places')
        .set({
          region: s3.region,
          access_key: access,
          secret_sealed: s3.secretAccessKey
            ? deps.sealer.seal(s3.secretAccessKey, sealedAt(id))
            : null,
          updated_at: at,
        })
        .where('id', '=', id)
        .execute();
    }
    return { id, bucket: s3.bucket, storage: adapterOf(id, s3) };
  }

  /** The storage in use now, resolved again after a settings write (or PLACE_TTL_MS). */
  let cached: { version: string; stale: number; inUse: Promise<InUse> } | undefined;
  function inUse(): Promise<InUse> {
    const cache = listCacheOf(db);
    const version =
      cache?.versionOf([
        { table: 'integration_settings', columns: ['sealed', 'kind', 'name'] },
        { table: 'storage_places', columns: ['region', 'access_key', 'secret_sealed'] },
      ]) ?? '';
    if (cache && cached && cached.version === version && Date.now() < cached.stale) {
      return cached.inUse;
    }
    const entry = {
      version,
      stale: cache?.seesExternalWrites ? Infinity : Date.now() + ttl,
      inUse: (async (): Promise<InUse> => {
        const s3 = await settingsS3();
        if (!s3) return { kind: 'environment' };
        const cdnBase = (await deps.secrets.read('storage', 'cdn_base')) ?? '';
        return { kind: 'settings', cdnBase, ...(await placeFor(s3)) };
      })(),
    };
    entry.inUse.catch(() => {
      if (cached === entry) cached = undefined;
    });
    // Keyed by the version before the place row's own write: the next call reads it once again.
    cached = entry;
    return entry.inUse;
  }

  /** The storage holding `key`: its place's, else the environment's. */
  async function storageOf(key: string): Promise<FileStorage> {
    return (await placeOf(key)).storage;
  }

  /** The storage holding `key` and its place's id (null: the environment's). */
  async function placeOf(key: string): Promise<{ storage: FileStorage; id: number | null }> {
    const row = await db
      .selectFrom('file_places as f')
      .innerJoin('storage_places as p', 'p.id', 'f.place_id')
      .select(['p.id', 'p.endpoint', 'p.bucket', 'p.region', 'p.access_key', 'p.secret_sealed'])
      .where('f.storage_key', '=', checkKey(key))
      .executeTakeFirst();
    if (!row) return { storage: environment, id: null };
    const id = Number(row.id);
    const storage = adapterOf(id, {
      endpoint: row.endpoint || undefined,
      bucket: row.bucket,
      region: row.region,
      accessKeyId: row.access_key ?? undefined,
      secretAccessKey:
        row.secret_sealed === null ? undefined : deps.sealer.open(row.secret_sealed, sealedAt(id)),
    });
    return { storage, id };
  }

  /** The storage new files go to now; `key` is recorded as that place's (or as the environment's). */
  async function storageFor(key: string): Promise<FileStorage> {
    checkKey(key);
    const use = await inUse();
    if (use.kind === 'environment') {
      // A key of a bucket written again: the environment's from now on (no write while no
      // bucket of the settings was ever used: no row can exist).
      if (await mayBeElsewhere()) {
        await db.deleteFrom('file_places').where('storage_key', '=', key).execute();
      }
      return environment;
    }
    await db
      .insertInto('file_places')
      .values({ storage_key: key, place_id: use.id, created_at: now() })
      .onConflict((oc) => oc.column('storage_key').doUpdateSet({ place_id: use.id }))
      .execute();
    return use.storage;
  }

  let elsewhere = false;
  /** Whether a bucket of the settings was ever used (asked until it was: never cached false). */
  async function mayBeElsewhere(): Promise<boolean> {
    if (elsewhere) return true;
    const row = await db.selectFrom('storage_places').select('id').limit(1).executeTakeFirst();
    // Once true it stays true: places are never removed.
    elsewhere = row !== undefined;
    return elsewhere;
  }

  return {
    async put(key, body, options) {
      return (await storageFor(key)).put(key, body, options);
    },
    async storeFile(key, file, options) {
      const storage = await storageFor(key);
      if (storage.localFiles) return storage.localFiles.adopt(key, file, options);
      return storage.put(key, createReadStream(file), options);
    },
    async get(key, range) {
      return (await storageOf(key)).get(key, range);
    },
    async stat(key) {
      return (await storageOf(key)).stat(key);
    },
    async exists(key) {
      return (await storageOf(key)).exists(key);
    },
    async delete(key) {
      await (await storageOf(key)).delete(key);
      await db.deleteFrom('file_places').where('storage_key', '=', key).execute();
    },
    async signedReadUrl(key, expiresIn, options) {
      const place = await placeOf(key);
      const signed = await place.storage.signedReadUrl(key, expiresIn, options);
      if (options?.direct || place.id === null) return signed;
      // The CDN set with the bucket in use fronts that bucket only (not the environment's, not
      // a bucket used before).
      const use = await inUse();
      return use.kind === 'settings' && use.cdnBase && use.id === place.id
        ? { ...signed, url: throughCdn(use.cdnBase, key, signed.url) }
        : signed;
    },
    async localPath(key) {
      const storage = await storageOf(key);
      return storage.localFiles ? storage.localFiles.path(key) : null;
    },
    async directUploadsFor(key) {
      return (await storageFor(key)).directUploads;
    },
    async directUploadsOf(key) {
      return (await storageOf(key)).directUploads;
    },
    localFiles: environment.localFiles,
    mayBeElsewhere,
    async inUse() {
      const use = await inUse();
      return use.kind === 'environment'
        ? { place: 'environment' }
        : { place: 'settings', id: use.id, bucket: use.bucket };
    },
  };
}
