import path from 'node:path';
import type { Config } from '../config';
import { API_PREFIX } from '../http/policy';
import type { Clock } from '../lib/clock';
import { keptSecret } from '../lib/secrets';
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';
import { FILE_URL_SECRET_FILE } from './signed-urls';
import type { FileStorage } from './storage';

/** The HMAC key of signed file URLs: `FILE_URL_SECRET`, else a random one kept in DATA_DIR. */
export const fileUrlSecret = (config: Pick<Config, 'dataDir' | 'fileUrlSecret'>) =>
  keptSecret(config.dataDir, FILE_URL_SECRET_FILE, config.fileUrlSecret);

/** The configured storage: S3-compatible when `S3_BUCKET` is set, else `DATA_DIR/files`. */
export function createFileStorage(config: Config, now: Clock): FileStorage {
  if (config.s3) return createS3Storage(config.s3, now);
  return createLocalStorage({
    root: path.join(config.dataDir, 'files'),
    secret: fileUrlSecret(config),
    apiBase: API_PREFIX,
    now,
  });
}
