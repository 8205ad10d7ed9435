import {
  ACCEPTED_EXTENSIONS,
  MAX_UPLOAD_BYTES,
  MEDIA_KIND,
  type MediaKind,
  type ResourceType,
} from '../../../src/api/contract/resources';
import { HIDDEN_NAME_CHARS } from '../../../src/api/contract/text';
import { refuse } from '../../platform/http/errors';

/**
 * The rules an upload's declared name and size must pass before any byte is accepted (the grant,
 * the form upload), and what its extension promises about its content (checked later from the
 * bytes, check-upload.ts). docs/decisions.md "Files and uploads".
 */

/** What each accepted extension may really contain (magic bytes), and the type it is served as. */
export const EXTENSION_TYPES: Readonly<Record<string, { served: string; content: string[] }>> = {
  // MP4 and QuickTime are the same ISO-BMFF container (players treat them alike); a phone's .mov
  // often carries an mp4 brand and the other way round.
  '.mp4': { served: 'video/mp4', content: ['video/mp4', 'video/quicktime'] },
  '.mov': { served: 'video/quicktime', content: ['video/quicktime', 'video/mp4'] },
  '.jpg': { served: 'image/jpeg', content: ['image/jpeg'] },
  '.jpeg': { served: 'image/jpeg', content: ['image/jpeg'] },
  '.png': { served: 'image/png', content: ['image/png'] },
  '.webp': { served: 'image/webp', content: ['image/webp'] },
  '.mp3': { served: 'audio/mpeg', content: ['audio/mpeg'] },
  '.wav': { served: 'audio/wav', content: ['audio/wav', 'audio/x-wav'] },
  '.m4a': { served: 'audio/mp4', content: ['audio/mp4', 'audio/x-m4a'] },
  '.ttf': { served: 'font/ttf', content: ['font/ttf'] },
  '.otf': { served: 'font/otf', content: ['font/otf'] },
};

/** The lower-cased extension of a file name (`.mp4`), or '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/** `500 MB`, `1.5 GB`: sizes in refusals (binary units, as the limits are written). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown} ${units[unit]}`;
}

const extensionsOf = (kind: MediaKind) => ACCEPTED_EXTENSIONS[kind].join(' ');

/** A file name without a path or an invisible character (`upload.badName`). */
export function checkFileName(name: string): void {
  if (/[/\\]/.test(name) || HIDDEN_NAME_CHARS.test(name) || name === '.' || name === '..') {
    throw refuse('upload.badName');
  }
}

/**
 * A name the user's file may carry: no path (`/`, `\`, hence no `../`), no control or invisible
 * format character (C0, DEL, C1, and Unicode format characters such as U+202E, which can show
 * `exe.mp4` for `mp4.exe`), and an extension the type accepts. Returns what the file will be
 * served as.
 */
export function checkName(type: ResourceType, name: string): { served: string } {
  checkFileName(name);
  const kind = MEDIA_KIND[type];
  const extension = extensionOf(name);
  if (!ACCEPTED_EXTENSIONS[kind].includes(extension) || !EXTENSION_TYPES[extension]) {
    throw refuse('upload.badExtension', { extensions: extensionsOf(kind) });
  }
  return { served: EXTENSION_TYPES[extension].served };
}

/** The type's size limit (docs/domain.md §8). */
export function checkSize(type: ResourceType, size: number): void {
  const max = MAX_UPLOAD_BYTES[MEDIA_KIND[type]];
  if (size > max) throw refuse('upload.tooLarge', { max: formatBytes(max) });
}

export { extensionsOf };
