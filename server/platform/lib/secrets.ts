import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A server secret (an HMAC key): `given` (from its environment variable) when set, else a random
 * one created on first start in `DATA_DIR/<fileName>` (mode 0600) and reused after, so what was
 * signed before a restart still verifies. Several servers on one PostgreSQL share it by the
 * variable. `make` makes a new one (default: 32 random bytes in hex).
 */
export function keptSecret(
  dataDir: string,
  fileName: string,
  given?: string,
  make: () => string = () => randomBytes(32).toString('hex'),
): string {
  if (given) return given;
  const file = path.join(dataDir, fileName);
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = make();
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return fs.readFileSync(file, 'utf8').trim();
    }
    throw error;
  }
}
