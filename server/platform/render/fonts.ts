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
