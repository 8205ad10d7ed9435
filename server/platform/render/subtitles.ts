import { SAFE_MARGIN, subtitlePages } from './text-fit';

/**
 * Spoken copy as timed subtitles (an ASS script for libass): the copy is split at sentence ends
 * and each sentence is shown for a share of the whole video proportional to its length (there
 * is no speech to align with; a longer sentence takes longer to read).
 */

export interface SubtitleLine {
  /** Seconds. */
  start: number;
  end: number;
  text: string;
}

const ENDS = '。！？';
const ASCII_ENDS = '.!?';
const CLOSERS = '”’」』）)"\'';

/**
 * Sentences of the copy: split after 。！？ (with any closing quotes or brackets after them), after
 * . ! ? followed by a space or the end (so "3.5" and "example.com" stay whole), and at line
 * breaks; trimmed, empty ones dropped. Each keeps its closing mark.
 */
export function splitSentences(copy: string): string[] {
  const out: string[] = [];
  const chars = Array.from(copy);
  let current = '';
  const push = () => {
    const sentence = current.trim();
    if (sentence) out.push(sentence);
    current = '';
  };
  // 'cjk' after 。！？ (a sentence end wherever it is), 'ascii' after . ! ? (one only before a space).
  let ending: 'cjk' | 'ascii' | null = null;
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i]!;
    if (c === '\n' || c === '\r') {
      push();
      ending = null;
      continue;
    }
    current += c;
    if (ENDS.includes(c)) ending = 'cjk';
    else if (ASCII_ENDS.includes(c)) ending = ending === 'cjk' ? 'cjk' : 'ascii';
    else if (!(CLOSERS.includes(c) && ending)) ending = null;
    if (!ending) continue;
    const next = chars[i + 1];
    if (next !== undefined && (ENDS + ASCII_ENDS + CLOSERS).includes(next)) continue;
    if (ending === 'cjk' || next === undefined || /\s/.test(next)) {
      push();
      ending = null;
    }
  }
  push();
  return out;
}

/** The sentences spread over `total` seconds, each for a time proportional to its length. */
export function timeLines(sentences: readonly string[], total: number): SubtitleLine[] {
  const weight = (s: string) => Array.from(s).length;
  const sum = sentences.reduce((n, s) => n + weight(s), 0);
  if (sum === 0 || total <= 0) return [];
  let used = 0;
  return sentences.map((text) => {
    const start = (total * used) / sum;
    used += weight(text);
    return { start, end: (total * used) / sum, text };
  });
}

/** ASS time: h:mm:ss.cc (centiseconds, rounded). */
export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360_000);
  const m = Math.floor((cs % 360_000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${h}:${two(m)}:${two(s)}.${two(c)}`;
}

/** #RRGGBB as ASS's &HAABBGGRR (opaque). */
export function assColour(hex: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return '&H00FFFFFF';
  return `&H00${m[3]}${m[2]}${m[1]}`.toUpperCase();
}

/**
 * Text shown literally by libass: braces would open override blocks (`\{` `\}` are libass's
 * literal braces) and a backslash before N, n or h would be a line break or hard space (a zero
 * width space after the backslash breaks the sequence).
 */
export function assText(text: string): string {
  return text
    .replace(/\\(?=[Nnh{}])/g, '\\\u200b')
    .replace(/[{}]/g, (c) => `\\${c}`)
    .replace(/\s+/g, ' ');
}

/** ASS numpad alignments, centred horizontally: bottom 2, middle 5, top 8. */
const ASS_ALIGNMENT = { bottom: 2, middle: 5, top: 8 } as const;

export interface AssOptions {
  width: number;
  height: number;
  /** A family fontconfig (or the subtitles filter's fontsdir) knows. */
  fontName: string;
  /** Pixels of the output frame. */
  size: number;
  /** #RRGGBB */
  color: string;
  lines: readonly SubtitleLine[];
  /** Pixels between the frame's edge and the lines (default 6 % of the height). */
  marginV?: number;
  /** Default bottom (middle: centred on the frame). */
  position?: 'top' | 'middle' | 'bottom';
  /** Outline width in pixels of the frame; default size ÷ 16 (at least 1). */
  outline?: number;
  /** The font's ems per unit of size as libass draws it (fonts.ts libassEmPerSize; default 1). */
  emPerSize?: number;
}

/**
 * The ASS script: one bottom-centred style with an outline; each sentence broken into lines that
 * fit between the side margins (text-fit.ts: libass would not break Chinese), shown two lines at a
 * time, each page for its share of the sentence's time.
 */
export function buildAss(options: AssOptions): string {
  const { width, height, size } = options;
  const font = options.fontName.replace(/[,\r\n]/g, ' ');
  const outline = options.outline ?? Math.max(1, Math.round(size / 16));
  const alignment = ASS_ALIGNMENT[options.position ?? 'bottom'];
  const marginV = Math.round(options.marginV ?? height * 0.06);
  const marginH = Math.round(width * SAFE_MARGIN);
  const maxEm = (width - 2 * marginH - 2 * outline) / (size * (options.emPerSize ?? 1));
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Default,${font},${size},${assColour(options.color)},&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,${outline},0,${alignment},${marginH},${marginH},${marginV},1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...options.lines.flatMap((l) =>
      pagesOf(l, maxEm).map(
        (p) =>
          `Dialogue: 0,${assTime(p.start)},${assTime(p.end)},Default,,0,0,0,,` +
          p.lines.map(assText).join('\\N'),
      ),
    ),
    '',
  ].join('\n');
}

/** A timed sentence as pages of lines, each page timed by its share of the characters. */
function pagesOf(line: SubtitleLine, maxEm: number) {
  const pages = subtitlePages(line.text, maxEm);
  const weights = pages.map((p) => Array.from(p.join('')).length);
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  let used = 0;
  return pages.map((lines, i) => {
    const start = line.start + ((line.end - line.start) * used) / sum;
    used += weights[i]!;
    return { start, end: line.start + ((line.end - line.start) * used) / sum, lines };
  });
}
