/**
 * Text fitted into the frame's safe width. drawtext never wraps, and Debian's libass wraps only at
 * spaces (it is built without Unicode line breaking), so a long Chinese title or subtitle ran off
 * both edges of a 9:16 frame. Lines are therefore broken here, before ffmpeg sees them.
 *
 * Widths are estimated from the characters in ems (no font metrics are read): measured on Noto
 * Sans CJK SC, rounded up, so an estimate is never narrower than the text drawn. CJK, kana,
 * hangul, full-width forms and emoji are 1 em; Latin letters ≈ 0.53 em on average, up to 0.91 (m);
 * the classes below stay above each one.
 */

/** Kept clear at the left and right of the frame, as a fraction of its width (each side). */
export const SAFE_MARGIN = 0.05;

const NARROW = new Set(" il!|.,:;'`ijltfr()[]{}");
const BROAD = new Set('mwMW@%&');
/** Never at the start of a line (kinsoku): they stay with the character before them. */
const NO_START = new Set('，。！？、；：）」』”’》〉】…—～·,.!?;:)]}%');
/** Never at the end of a line: they go with the character after them. */
const NO_END = new Set('（「『“‘《〈【([{');

/** East Asian wide and full-width characters, and emoji (drawn 1 em wide or more). */
const WIDE =
  /[\u1100-\u115f\u2014\u2026\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}|[\u{20000}-\u{3fffd}]/u;

const isWide = (c: string) => WIDE.test(c);
const isSpace = (c: string) => c === ' ';

/** One character's estimated advance, ems. */
function charEm(c: string): number {
  if (isWide(c)) return 1;
  if (NARROW.has(c)) return 0.35;
  if (BROAD.has(c)) return 0.95;
  if (/[A-Z]/.test(c)) return 0.72;
  if (/[a-z0-9]/.test(c)) return 0.6;
  // Other scripts (Cyrillic, Greek, accented Latin, symbols): Ж is 0.9 em.
  return c.charCodeAt(0) < 0x80 ? 0.65 : 0.92;
}

/** The estimated width of a text, ems. */
export function textEm(text: string): number {
  let sum = 0;
  for (const c of text) sum += charEm(c);
  return sum;
}

/**
 * The text cut where a line may break: between two wide characters, around a wide one, and after
 * a space (which stays at the end of its piece); a Latin word stays whole, and kinsoku
 * punctuation stays with its neighbour.
 */
function pieces(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const c of text) {
    const prev = current.slice(-1);
    const joins =
      current === '' ||
      isSpace(c) ||
      NO_START.has(c) ||
      NO_END.has(prev) ||
      (!isSpace(prev) && !isWide(prev) && !isWide(c));
    if (joins) current += c;
    else {
      out.push(current);
      current = c;
    }
  }
  if (current) out.push(current);
  return out;
}

/** A piece wider than a whole line, cut into characters (the only way it fits). */
function splitLong(piece: string, maxEm: number): string[] {
  if (textEm(piece.trimEnd()) <= maxEm) return [piece];
  return Array.from(piece);
}

/** Pieces into lines of at most `maxEm` (greedy; trailing spaces do not count). */
function fill(parts: readonly string[], maxEm: number): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  let width = 0;
  for (const part of parts.flatMap((p) => splitLong(p, maxEm))) {
    const inked = textEm(part.trimEnd());
    if (line.length > 0 && width + inked > maxEm) {
      lines.push(line);
      line = [];
      width = 0;
    }
    line.push(part);
    width += textEm(part);
  }
  if (line.length) lines.push(line);
  return lines;
}

/**
 * The narrowest width that still gives the same number of lines: the lines come out about
 * equally long (no lone character on the last line).
 */
function balanced(parts: readonly string[], maxEm: number): string[][] {
  const greedy = fill(parts, maxEm);
  if (greedy.length < 2) return greedy;
  let low = maxEm / greedy.length;
  let high = maxEm;
  let best = greedy;
  for (let i = 0; i < 12; i += 1) {
    const mid = (low + high) / 2;
    const lines = fill(parts, mid);
    if (lines.length <= greedy.length) {
      best = lines;
      high = mid;
    } else low = mid;
  }
  return best;
}

const text = (line: readonly string[]) => line.join('').trim();
const normalise = (s: string) => s.replace(/[^\S\n]+/g, ' ').trim();

/** A text (line breaks kept) as lines at most `maxEm` wide, balanced. */
export function wrapText(input: string, maxEm: number): string[] {
  return normalise(input)
    .split('\n')
    .flatMap((paragraph) => balanced(pieces(paragraph.trim()), maxEm).map(text))
    .filter((line) => line !== '');
}

/**
 * A subtitle as pages of at most `maxLines` lines (each page shown in turn): a sentence longer
 * than two lines would otherwise cover the picture. Line breaks in the text are spaces here.
 */
export function subtitlePages(input: string, maxEm: number, maxLines = 2): string[][] {
  const parts = pieces(normalise(input.replace(/\s+/g, ' ')));
  const lines = fill(parts, maxEm);
  const pages: string[][] = [];
  for (let i = 0; i < lines.length; i += maxLines) {
    pages.push(balanced(lines.slice(i, i + maxLines).flat(), maxEm).map(text));
  }
  return pages.filter((page) => page.some((line) => line !== ''));
}

export interface FittedText {
  /** Pixels. */
  size: number;
  lines: string[];
}

/**
 * A title at `size` pixels wrapped into `widthPx`; when that takes more than `maxLines` lines, a
 * smaller size (down to `minSize`) that needs fewer, as few as it can.
 */
export function fitTitle(
  input: string,
  size: number,
  widthPx: number,
  options: { maxLines: number; minSize: number; border: (size: number) => number },
): FittedText {
  const at = (s: number) => wrapText(input, (widthPx - 2 * options.border(s)) / s);
  let fitted = { size, lines: at(size) };
  while (fitted.lines.length > options.maxLines && fitted.size > options.minSize) {
    const next = Math.max(options.minSize, Math.floor(fitted.size * 0.92));
    fitted = { size: next, lines: at(next) };
  }
  return fitted;
}
