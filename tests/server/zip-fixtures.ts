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

/** `unzip -t` of an archive (every entry's CRC checked): whether it passed, and what it said. */
export async function testZip(bytes: Buffer): Promise<{ ok: boolean; output: string }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-zip-'));
  try {
    const file = path.join(dir, 'all.zip');
    await fs.writeFile(file, bytes);
    const { stdout } = await run('unzip', ['-t', file]);
    return { ok: true, output: stdout };
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${stdout ?? ''}${stderr ?? ''}` };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** What an archive says of an entry: in its central directory and in its local header. */
export interface ZipHeader {
  name: string;
  /** General purpose flags (bit 3: CRC and sizes in a data descriptor after the bytes). */
  flags: number;
  /** The CRC-32 and size in the central directory. */
  crc: number;
  size: number;
  /** The same fields in the local header (0 when bit 3 is set). */
  localFlags: number;
  localCrc: number;
  localSize: number;
}

/** Every entry's headers, read from the central directory (an archive without a comment). */
export function zipHeaders(bytes: Buffer): ZipHeader[] {
  const end = bytes.length - 22;
  if (bytes.readUInt32LE(end) !== 0x06054b50) throw new Error('no end of central directory');
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const headers: ZipHeader[] = [];
  for (let i = 0; i < count; i += 1) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error(`no central header at ${at}`);
    const nameLength = bytes.readUInt16LE(at + 28);
    const skip = nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    if (bytes.readUInt32LE(local) !== 0x04034b50) throw new Error(`no local header at ${local}`);
    headers.push({
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      flags: bytes.readUInt16LE(at + 8),
      crc: bytes.readUInt32LE(at + 16),
      size: bytes.readUInt32LE(at + 24),
      localFlags: bytes.readUInt16LE(local + 6),
      localCrc: bytes.readUInt32LE(local + 14),
      localSize: bytes.readUInt32LE(local + 22),
    });
    at += 46 + skip;
  }
  return headers;
}
