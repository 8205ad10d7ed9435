/**
 * What platform images are (docs/domain.md §8 "Platform images"): their purposes, each purpose's
 * files and size cap, and the form of their addresses — without zod, so that the console's
 * upload field and machine do not pull the schema library in (./platform-images.ts has the
 * call's schemas).
 */

/** What an image is uploaded for: it may be used for that only. */
export const PLATFORM_IMAGE_PURPOSES = ['logo', 'favicon', 'content'] as const;
export type PlatformImagePurpose = (typeof PLATFORM_IMAGE_PURPOSES)[number];

const KB = 1024;
const MB = 1024 * KB;

/**
 * Each purpose's accepted files (by extension; the bytes are checked to be that type) and size
 * cap. No SVG anywhere: an SVG is a document that may carry scripts (opened at its own address it
 * would run them on our origin), and sanitising SVG is not something we do; no GIF either (the
 * library's image types, plus ICO for favicons).
 */
export const PLATFORM_IMAGE_RULES: Readonly<
  Record<PlatformImagePurpose, { extensions: readonly string[]; maxBytes: number }>
> = {
  logo: { extensions: ['.png', '.jpg', '.jpeg', '.webp'], maxBytes: 1 * MB },
  favicon: { extensions: ['.png', '.ico'], maxBytes: 256 * KB },
  content: { extensions: ['.png', '.jpg', '.jpeg', '.webp'], maxBytes: 5 * MB },
};

/** An image wider or taller than this is refused (a decompression bomb for every visitor). */
export const PLATFORM_IMAGE_MAX_SIDE = 8192;

/** The MIME type each accepted extension's bytes must be (and the image is served as). */
export const PLATFORM_IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
};

/** The extension of the served name, by the checked type. */
export const PLATFORM_IMAGE_EXTENSION: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/x-icon': 'ico',
};

/** Where the images are served (public: no session, no signature). */
export const PLATFORM_IMAGE_PATH = '/api/v1/images/';
/** A served image's name: 32 random hex digits and the extension of its checked type. */
export const PLATFORM_IMAGE_NAME = /^[0-9a-f]{32}\.(png|jpg|webp|ico)$/;

/** The served extensions a purpose's URL may end with. */
const URL_EXTENSIONS: Record<PlatformImagePurpose, readonly string[]> = {
  logo: ['png', 'jpg', 'webp'],
  favicon: ['png', 'ico'],
  content: ['png', 'jpg', 'webp'],
};

/**
 * Whether `url` is the address of a platform image (of `purpose`'s types when given): exactly
 * `/api/v1/images/<name>`, no query, no other origin. The server also checks that the image
 * exists and may be used there.
 */
export function isPlatformImageUrl(url: string, purpose?: PlatformImagePurpose): boolean {
  if (!url.startsWith(PLATFORM_IMAGE_PATH)) return false;
  const name = url.slice(PLATFORM_IMAGE_PATH.length);
  if (!PLATFORM_IMAGE_NAME.test(name)) return false;
  return !purpose || URL_EXTENSIONS[purpose].includes(name.slice(name.lastIndexOf('.') + 1));
}

/** The `accept` of a file input choosing a purpose's image. */
export const acceptOf = (purpose: PlatformImagePurpose) =>
  PLATFORM_IMAGE_RULES[purpose].extensions.join(',');
