import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { PLATFORM_IMAGE_PURPOSES } from './platform-image-rules';

/**
 * Platform images (docs/domain.md §8 "Platform images", docs/decisions.md "Platform images"): the
 * pictures the platform's own pages show — a domain's logo and favicon, an article's cover and
 * the images of article and agreement bodies. Uploaded by the admin (and by a partner for its own
 * articles) with `POST /upload/platform_image`, checked by their bytes, and served publicly (the
 * login page shows the brand to visitors) at `/api/v1/images/<32 hex>.<ext>`.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/** `POST /upload/platform_image`'s form field before the file (multipart: `purpose`, then `file`). */
export const platformImageFields = z.strictObject({
  purpose: z.enum(PLATFORM_IMAGE_PURPOSES, msg('validation.imagePurpose')),
});

export const platformImageSchema = z.object({
  /** The image's public address (`/api/v1/images/<name>`): what a domain or an article stores. */
  url: z.string(),
  purpose: z.enum(PLATFORM_IMAGE_PURPOSES),
  content_type: z.string(),
  size: z.number(),
  width: z.number(),
  height: z.number(),
});
export type PlatformImage = z.infer<typeof platformImageSchema>;
