import os from 'node:os';
import path from 'node:path';
import { ChildProcessError } from './child-process';

/**
 * What a person may read of why a job failed (the "details" of a failed output or video): the
 * failure's text without the server's file paths or signed URLs — an input's own name where it is
 * known, else the file's base name — and without ffmpeg's repeated lines and memory addresses,
 * its last few lines only. The whole text belongs in the server's log (the callers log it).
 */

/** A file or URL a job read, and the name its owner knows it by (a resource's name). */
export interface NamedSource {
  source: string;
  name: string;
}

const LINES = 3;
const LINE_CHARS = 240;

/** A failure (an error or a stored detail) as a person may read it. */
export function failureDetail(
  failure: unknown,
  options: { sources?: readonly NamedSource[]; roots?: readonly string[] } = {},
): string {
  let head = '';
  let body: string;
  if (failure instanceof ChildProcessError) {
    head = `${failure.command} ${
      failure.exitCode === null
        ? `was stopped (${failure.exitSignal})`
        : `exited with ${failure.exitCode}`
    }`;
    body = failure.stderrTail;
  } else {
    body = failure instanceof Error ? failure.message : String(failure);
  }
  const scrub = scrubber(options);
  const lines: string[] = [];
  for (const raw of body.split('\n')) {
    const line = scrub(raw).slice(0, LINE_CHARS).trim();
    if (!line) continue;
    const at = lines.indexOf(line);
    if (at >= 0) lines.splice(at, 1); // a repeated line counts once, where it was last
    lines.push(line);
  }
  const kept = lines.slice(-LINES).join('\n');
  if (!head) return kept;
  return kept ? `${head}: ${kept}` : head;
}

/** An absolute path (after a space, quote, bracket, `=` or the line's start), up to `:` or a space. */
const ABSOLUTE_PATH = /(^|[\s'"(=[,])(\/[^\s'":,;)\]]+)/g;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi;

/** Replaces the sources by their names, then URLs and absolute paths (by their base names). */
function scrubber(options: { sources?: readonly NamedSource[]; roots?: readonly string[] }) {
  const sources = [...(options.sources ?? [])]
    .filter((s) => s.source)
    .sort((a, b) => b.source.length - a.source.length);
  // The server's directories are taken literally first: their names may hold spaces.
  const roots = [...(options.roots ?? []), os.tmpdir(), process.cwd(), os.homedir()]
    .map((root) => root.replace(/\/+$/, ''))
    .filter((root) => root.length > 1)
    .sort((a, b) => b.length - a.length);
  return (line: string) => {
    let out = line;
    for (const { source, name } of sources) out = out.split(source).join(`“${name}”`);
    for (const root of roots) out = out.split(root).join('/…');
    return out
      .replace(URL, '<url>')
      .replace(ABSOLUTE_PATH, (_, before: string, file: string) => before + path.basename(file))
      .replace(/ @ 0x[0-9a-f]+\]/gi, ']') // "[h264 @ 0x55d0c0a8e2c0]": an address, of no use
      .replace(/\b0x[0-9a-f]{8,}\b/gi, '…');
  };
}
