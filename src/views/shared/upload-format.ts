import type { IntlShape } from 'react-intl';
import {
  ACCEPTED_EXTENSIONS,
  MEDIA_KIND,
  type MediaKind,
  type ResourceType,
} from '../../api/contract/resources';

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** A size in the viewer's locale, in binary steps (1 MB = 1024 KB): "12.3 MB", "870 KB". */
export function formatBytes(intl: IntlShape, bytes: number, perSecond = false): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return intl.formatNumber(value, {
    style: 'unit',
    unit: perSecond ? `${UNITS[unit]}-per-second` : UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 || value >= 100 ? 0 : 1,
  });
}

/** The type a file of each kind goes in as when it does not fit the type chosen. */
const TYPE_OF_KIND: Record<MediaKind, ResourceType> = {
  video: 'video',
  image: 'image',
  audio: 'audio',
  font: 'font',
};

/** A file's kind by what it really is (its media type, else its extension); null if none fits. */
export function kindOf(file: { name: string; type: string }): MediaKind | null {
  const dot = file.name.lastIndexOf('.');
  const extension = dot < 0 ? '' : file.name.slice(dot).toLowerCase();
  const kinds = Object.keys(ACCEPTED_EXTENSIONS) as MediaKind[];
  const byMime = kinds.find((k) => file.type.startsWith(`${k}/`));
  if (byMime && ACCEPTED_EXTENSIONS[byMime].includes(extension)) return byMime;
  return kinds.find((k) => ACCEPTED_EXTENSIONS[k].includes(extension)) ?? null;
}

/**
 * The type a dropped or chosen file is uploaded as: the type chosen when the file is of its kind
 * (or of no accepted kind: the upload's own check refuses it), else its own kind's type (a PNG
 * dropped while "video" is chosen goes in as an image).
 */
export function classifyUpload(file: { name: string; type: string }, chosen: ResourceType) {
  const kind = kindOf(file);
  return kind === null || kind === MEDIA_KIND[chosen] ? chosen : TYPE_OF_KIND[kind];
}
