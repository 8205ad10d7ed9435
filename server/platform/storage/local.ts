import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../lib/clock';
import { checkKey } from './keys';
import { signFileUrl } from './signed-urls';
import {
  cleanFilename,
  FileTooLargeError,
  RangeNotSatisfiableError,
  READ_URL_SECONDS,
  type FileInfo,
  type FileStorage,
  type LocalFiles,
} from './storage';

export interface LocalStorageOptions {
  /** `DATA_DIR/files`. */
  root: string;
  /** HMAC key of the signed read URLs. */
  secret: string;
  /** Where the API is mounted (`/api/v1`): signed URLs are `<apiBase>/files/<key>?exp&sig`. */
  apiBase: string;
  now: Clock;
}

interface StoredMeta {
  contentType: string;
  filename?: string;
}

/**
 * Local disk: a file's bytes at `<root>/<key>`, what is stored with it (content type, name) at
 * `<root>/.meta/<key>.json`, writes first to `<root>/.tmp/` and then renamed into place (same
 * file system), so a reader never sees half a file. Keys never start with a dot, so `.meta` and
 * `.tmp` are no key's place. Reads go through signed URLs served by `GET /api/v1/files/<key>`.
 */
export function createLocalStorage(options: LocalStorageOptions): FileStorage {
  const { root, secret, apiBase, now } = options;
  const tmpDir = path.join(root, '.tmp');
  const dataPath = (key: string) => path.join(root, checkKey(key));
  const metaPath = (key: string) => path.join(root, '.meta', `${checkKey(key)}.json`);

  const tempFile = async () => {
    await fsp.mkdir(tmpDir, { recursive: true });
    return path.join(tmpDir, randomBytes(12).toString('hex'));
  };

  /** Writes `text` to `target` through a temp file and a rename. */
  const writeAtomically = async (target: string, text: string) => {
    const tmp = await tempFile();
    await fsp.writeFile(tmp, text, { flag: 'wx' });
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(tmp, target);
  };

  const stat = async (key: string): Promise<FileInfo | null> => {
    const file = dataPath(key);
    let meta: StoredMeta;
    let size: number;
    try {
      meta = JSON.parse(await fsp.readFile(metaPath(key), 'utf8')) as StoredMeta;
      size = (await fsp.stat(file)).size;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw error;
    }
    return { key, size, contentType: meta.contentType, filename: meta.filename };
  };

  const writeMeta = async (key: string, contentType: string, filename: string | undefined) => {
    const name = cleanFilename(filename) || undefined;
    const meta: StoredMeta = { contentType, ...(name ? { filename: name } : {}) };
    await writeAtomically(metaPath(key), JSON.stringify(meta));
    return name;
  };

  const localFiles: LocalFiles = {
    path: dataPath,
    async adopt(key, source, { contentType, filename, maxBytes }) {
      const file = dataPath(key);
      const { size } = await fsp.stat(source);
      if (maxBytes !== undefined && size > maxBytes) throw new FileTooLargeError(maxBytes);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      try {
        await fsp.rename(source, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        // Another file system: copy through a temp file (a reader never sees half a file).
        const tmp = await tempFile();
        try {
          await fsp.copyFile(source, tmp);
          await fsp.rename(tmp, file);
        } catch (copyError) {
          await fsp.rm(tmp, { force: true });
          throw copyError;
        }
        await fsp.rm(source, { force: true });
      }
      const name = await writeMeta(key, contentType, filename);
      return { key, size, contentType, filename: name };
    },
  };

  return {
    kind: 'local',
    directUploads: null,
    localFiles,

    async put(key, body, { contentType, filename, maxBytes }) {
      const file = dataPath(key);
      const tmp = await tempFile();
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (maxBytes !== undefined && size > maxBytes) done(new FileTooLargeError(maxBytes));
          else done(null, chunk);
        },
      });
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      try {
        await pipeline(source, count, fs.createWriteStream(tmp, { flags: 'wx' }));
        const handle = await fsp.open(tmp, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fsp.mkdir(path.dirname(file), { recursive: true });
        await fsp.rename(tmp, file);
      } catch (error) {
        await fsp.rm(tmp, { force: true });
        throw error;
      }
      const name = await writeMeta(key, contentType, filename);
      return { key, size, contentType, filename: name };
    },

    async get(key, range) {
      const info = await stat(key);
      if (!info) return null;
      if (!range) return { info, range: undefined, body: fs.createReadStream(dataPath(key)) };
      if (range.start >= info.size) throw new RangeNotSatisfiableError(info.size);
      const served = { start: range.start, end: Math.min(range.end, info.size - 1) };
      return { info, range: served, body: fs.createReadStream(dataPath(key), served) };
    },

    stat,

    async exists(key) {
      return (await stat(key)) !== null;
    },

    async delete(key) {
      await fsp.rm(dataPath(key), { force: true });
      await fsp.rm(metaPath(key), { force: true });
    },

    async signedReadUrl(key, expiresIn = READ_URL_SECONDS, options = {}) {
      checkKey(key);
      const expiresAt = Math.ceil((now() + expiresIn * 1000) / 1000) * 1000;
      return { url: signFileUrl(secret, apiBase, key, expiresAt, options.download), expiresAt };
    },
  };
}
