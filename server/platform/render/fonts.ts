import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';

/**
 * The CJK font for titles and subtitles (Noto Sans CJK, Debian's fonts-noto-cjk). Asked of
 * fontconfig once per process (`fc-match`), with Debian's path as the fallback when fontconfig
 * is missing or answers with a font that has no CJK glyphs.
 */
const run = promisify(execFile);

export const CJK_FAMILY = 'Noto Sans CJK SC';
const FALLBACK_FILES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
];

export interface CjkFont {
  /**
   * The fontconfig family when fontconfig knows the font: drawtext's `font=` then takes the
   * Simplified Chinese face of the .ttc (its `fontfile=` would take face 0, Japanese forms).
   */
  family: string | null;
  /** The font file (a .ttc or .otf). */
  file: string;
}

let lookup: Promise<CjkFont> | undefined;

/** The CJK font, looked up once; rejects when none is installed. */
export function cjkFont(): Promise<CjkFont> {
  lookup ??= findCjkFont().catch((error: unknown) => {
    lookup = undefined; // a later call may find it (installed meanwhile)
    throw error;
  });
  return lookup;
}

async function findCjkFont(): Promise<CjkFont> {
  try {
    const { stdout } = await run('fc-match', ['-f', '%{file}\n%{family}', CJK_FAMILY]);
    const [file = '', families = ''] = stdout.split('\n');
    if (file && /CJK/i.test(families) && fs.existsSync(file)) {
      const family = families.split(',').find((f) => f.trim() === CJK_FAMILY);
      return { family: family ? CJK_FAMILY : null, file };
    }
  } catch {
    // no fontconfig tools: the fallback paths below
  }
  const file = FALLBACK_FILES.find((f) => fs.existsSync(f));
  if (!file) {
    throw new Error(
      `No CJK font (${CJK_FAMILY}) is installed: apt-get install fonts-noto-cjk (see README, Rendering)`,
    );
  }
  return { family: null, file };
}

/** The first family name of a font file (`fc-scan`), or null when fontconfig cannot read it. */
export async function fontFamilyOf(file: string): Promise<string | null> {
  try {
    const { stdout } = await run('fc-scan', ['--format', '%{family[0]}\n', file]);
    return stdout.split('\n')[0]?.trim() || null;
  } catch {
    return null;
  }
}

/**
 * Ems per unit of an ASS font size for a font file, as libass sizes it (it follows VSFilter: the
 * size is the font's OS/2 winAscent + winDescent, else its hhea ascender - descender). Noto Sans
 * CJK gives 1000 / 1448 ≈ 0.69, most fonts 0.7–1. 1 when the file cannot be read as a TTF, OTF or
 * collection (a WOFF, say).
 */
export async function libassEmPerSize(file: string): Promise<number> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, 'r');
    const at = async (offset: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle!.read(buffer, 0, length, offset);
      if (bytesRead < length) throw new Error('short font file');
      return buffer;
    };
    let start = 0;
    if ((await at(0, 4)).toString('latin1') === 'ttcf') start = (await at(12, 4)).readUInt32BE(0);
    const header = await at(start, 12);
    const count = header.readUInt16BE(4);
    const records = await at(start + 12, count * 16);
    const tables = new Map<string, number>();
    for (let i = 0; i < count; i += 1) {
      tables.set(records.toString('latin1', i * 16, i * 16 + 4), records.readUInt32BE(i * 16 + 8));
    }
    const head = tables.get('head');
    if (head === undefined) return 1;
    const unitsPerEm = (await at(head + 18, 2)).readUInt16BE(0);
    const os2 = tables.get('OS/2');
    const hhea = tables.get('hhea');
    let height = 0;
    if (os2 !== undefined) {
      const win = await at(os2 + 74, 4);
      height = win.readUInt16BE(0) + win.readUInt16BE(2);
    }
    if (!height && hhea !== undefined) {
      const metrics = await at(hhea + 4, 4);
      height = metrics.readInt16BE(0) - metrics.readInt16BE(2);
    }
    return unitsPerEm > 0 && height > 0 ? Math.min(2, unitsPerEm / height) : 1;
  } catch {
    return 1;
  } finally {
    await handle?.close();
  }
}
