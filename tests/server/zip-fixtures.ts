import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The ZIP a signed link answers, unpacked by Info-ZIP's `unzip`: entry name → its bytes. */
export async function unzipReply(bytes: Buffer): Promise<Map<string, Buffer>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-zip-'));
  try {
    const file = path.join(dir, 'all.zip');
    await fs.writeFile(file, bytes);
    // -t: every entry's CRC checked; then the names, then each entry's bytes.
    await run('unzip', ['-tq', file]);
    const { stdout } = await run('unzip', ['-Z1', file]);
    const entries = new Map<string, Buffer>();
    for (const name of stdout.split('\n').filter(Boolean)) {
      const { stdout: data } = await run('unzip', ['-p', file, name], {
        encoding: 'buffer',
        maxBuffer: 64 << 20,
      });
      entries.set(name, data);
    }
    return entries;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
