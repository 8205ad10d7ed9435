import fs from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * A ZIP archive written as a stream (docs/decisions.md "Download all as one ZIP"): each entry's
 * bytes pass straight from its source to the reply, stored as they are (method 0: videos do not
 * compress); the central directory follows the last entry. An entry whose CRC-32 is known
 * beforehand (computed once when its file was stored) has it and its size in its local header and
 * its bytes are not read through a checksum; any other entry's CRC-32 is computed on the way and
 * written after its bytes in a data descriptor. A file of this machine is read into one buffer of
 * {@link READ_CHUNK} bytes, used again once the reply has taken its bytes (each write waits for
 * its callback): no allocation per chunk, so no garbage for the GC to chase (docs/performance.md
 * "Download all"). Nothing of the archive is kept but one small record per entry, so no
 * temporary file and no whole archive in memory. Without ZIP64: the archive must stay under
 * 4 GiB ({@link ZIP_MAX_BYTES}), which the caller checks from the sizes beforehand.
 */
export interface ZipEntry {
  /** The name in the archive (UTF-8; the caller makes it safe: no path separators). */
  name: string;
  /** Its exact size in bytes (the archive's length is computed from it). */
  size: number;
  /**
   * The CRC-32 of its bytes when known beforehand: trusted (not checked against the bytes; a
   * reader checks it when it unpacks the entry). Absent: computed as the bytes stream.
   */
  crc?: number | undefined;
  /** Its bytes: a file of this machine (read in place), or a stream opened when reached. */
  source: { file: string } | { open: () => Promise<Readable> };
}

/** The largest archive this writer makes (no ZIP64): offsets and sizes are 32-bit. */
export const ZIP_MAX_BYTES = 0xffff_ffff;

const LOCAL = 30;
const DESCRIPTOR = 16;
const CENTRAL = 46;
const END = 22;
/** Bit 11: UTF-8 names. */
const UTF8 = 0x0800;
/** Bit 3: CRC and sizes in a data descriptor after the bytes (not known at the header). */
const DESCRIBED = 0x0008;

/** The archive's exact length for these entries. */
export function zipLength(entries: readonly Pick<ZipEntry, 'name' | 'size' | 'crc'>[]): number {
  return entries.reduce(
    (sum, e) =>
      sum +
      LOCAL +
      (e.crc === undefined ? DESCRIPTOR : 0) +
      CENTRAL +
      2 * Buffer.byteLength(e.name) +
      e.size,
    END,
  );
}

/** Bytes read at a time by {@link fileCrc32} (and by "download all" from the local disk). */
export const READ_CHUNK = 1 << 20;

/** The CRC-32 of a file of this machine (read in {@link READ_CHUNK} pieces). */
export async function fileCrc32(file: string): Promise<number> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    let crc = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, null);
      if (bytesRead === 0) return crc >>> 0;
      crc = crc32(buffer.subarray(0, bytesRead), crc);
    }
  } finally {
    await handle.close();
  }
}

/** MS-DOS date and time of `at` (local fields of UTC: archives carry no zone). */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
    date:
      ((Math.max(at.getUTCFullYear(), 1980) - 1980) << 9) |
      ((at.getUTCMonth() + 1) << 5) |
      at.getUTCDate(),
  };
}

interface Written {
  name: Buffer;
  flags: number;
  crc: number;
  size: number;
  offset: number;
}

/** Each piece of `entry`'s bytes; a file's are read into `buffer`, valid until the next piece. */
async function* bytesOf(entry: ZipEntry, buffer: Buffer): AsyncGenerator<Buffer> {
  const { source } = entry;
  if ('open' in source) {
    for await (const chunk of await source.open()) yield chunk as Buffer;
    return;
  }
  const handle = await fs.open(source.file, 'r');
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * The archive's bytes in order. A piece may be a view of a buffer that is filled again for a
 * later piece: the consumer is done with one before it asks for the next.
 */
async function* archive(entries: readonly ZipEntry[], at: Date): AsyncGenerator<Buffer> {
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  const { time, date } = dosTime(at);
  const written: Written[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const known = entry.crc !== undefined;
    const flags = known ? UTF8 : UTF8 | DESCRIBED;
    const local = Buffer.alloc(LOCAL);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(0, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    if (known) {
      local.writeUInt32LE(entry.crc! >>> 0, 14);
      local.writeUInt32LE(entry.size, 18);
      local.writeUInt32LE(entry.size, 22);
    } // else CRC and sizes (14–25) stay 0: they follow the data (bit 3).
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    yield Buffer.concat([local, name]);
    let crc = 0;
    let size = 0;
    for await (const bytes of bytesOf(entry, buffer)) {
      if (!known) crc = crc32(bytes, crc);
      size += bytes.length;
      yield bytes;
    }
    if (size !== entry.size) {
      throw new Error(`zip entry ${entry.name}: ${size} bytes read, ${entry.size} announced`);
    }
    if (known) {
      crc = entry.crc!;
    } else {
      const descriptor = Buffer.alloc(DESCRIPTOR);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc >>> 0, 4);
      descriptor.writeUInt32LE(size, 8);
      descriptor.writeUInt32LE(size, 12);
      yield descriptor;
    }
    written.push({ name, flags, crc: crc >>> 0, size, offset });
    offset += LOCAL + name.length + size + (known ? 0 : DESCRIPTOR);
  }
  const start = offset;
  const central = written.map((w) => {
    const head = Buffer.alloc(CENTRAL);
    head.writeUInt32LE(0x02014b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(20, 6);
    head.writeUInt16LE(w.flags, 8);
    head.writeUInt16LE(0, 10);
    head.writeUInt16LE(time, 12);
    head.writeUInt16LE(date, 14);
    head.writeUInt32LE(w.crc, 16);
    head.writeUInt32LE(w.size, 20);
    head.writeUInt32LE(w.size, 24);
    head.writeUInt16LE(w.name.length, 28);
    // extra, comment, disk, internal and external attributes (30–41) stay 0.
    head.writeUInt32LE(w.offset, 42);
    return Buffer.concat([head, w.name]);
  });
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(END);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(written.length, 8);
  end.writeUInt16LE(written.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(start, 16);
  yield Buffer.concat([directory, end]);
}

/**
 * Writes the archive of `entries`, dated `at`, to `out` (an HTTP reply whose headers are set) and
 * ends it. Entries are opened one at a time, in order; each write waits until `out` has taken its
 * bytes (its callback), so a slow reader holds back the reading. Rejects, with `out` left to the
 * caller, when `out` closes first (the client went away), when a source fails, or when an entry's
 * bytes differ in number from its `size`; the entry being read is closed.
 */
export async function writeZip(
  entries: readonly ZipEntry[],
  at: Date,
  out: Writable,
): Promise<void> {
  if (entries.length > 0xffff) throw new Error('zip: too many entries');
  // A reply whose socket is gone never calls a write's callback back: its 'close' ends the wait.
  let onClose: () => void = () => undefined;
  const closed = new Promise<never>((_, reject) => {
    onClose = () => reject(new Error('zip: the reply closed before the archive ended'));
    out.once('close', onClose);
  });
  closed.catch(() => undefined);
  const written = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => {
      out.write(chunk, (error) => (error ? reject(error) : resolve()));
    });
  try {
    for await (const chunk of archive(entries, at)) {
      if (out.destroyed) throw new Error('zip: the reply closed before the archive ended');
      await Promise.race([written(chunk), closed]);
    }
  } finally {
    out.off('close', onClose);
  }
  out.end();
}
