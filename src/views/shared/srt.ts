/**
 * SRT subtitles as timed lines (docs/domain.md §9 "Subtitles": an imported SRT keeps its times).
 * Cues are blocks separated by blank lines: an optional index, `HH:MM:SS,mmm --> HH:MM:SS,mmm`
 * (a dot accepted for the comma, hours optional), then the text (its lines joined by a space;
 * tags like `<i>` and `{\an8}` removed). A block without a readable time line is skipped.
 */
export interface SrtLine {
  /** Seconds. */
  start: number;
  end: number;
  text: string;
}

const TIME = /(?:(\d+):)?(\d{1,2}):(\d{1,2})[,.](\d{1,3})/;
const seconds = (m: RegExpExecArray) =>
  Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]!.padEnd(3, '0')) / 1000;

export function parseSrt(source: string): SrtLine[] {
  const blocks = source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/);
  const lines: SrtLine[] = [];
  for (const block of blocks) {
    const rows = block.split('\n');
    const at = rows.findIndex((row) => row.includes('-->'));
    if (at < 0) continue;
    const [from, to] = rows[at]!.split('-->');
    const start = TIME.exec(from ?? '');
    const end = TIME.exec(to ?? '');
    if (!start || !end) continue;
    const text = rows
      .slice(at + 1)
      .join(' ')
      .replace(/<[^>]*>|\{\\[^}]*\}/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!text) continue;
    lines.push({ start: seconds(start), end: seconds(end), text });
  }
  return lines;
}
