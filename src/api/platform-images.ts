/**
 * Platform images (`POST /upload/platform_image`, docs/domain.md §8 "Platform images"); contract:
 * ./contract/platform-images.ts. One small form request: the purpose, then the file.
 */
import type { PlatformImagePurpose } from './contract/platform-image-rules';
import type { PlatformImage } from './contract/platform-images';
import { post, type RequestOptions } from './http';

export function uploadPlatformImage(
  purpose: PlatformImagePurpose,
  file: File,
  options?: RequestOptions,
): Promise<PlatformImage> {
  const form = new FormData();
  // The purpose first: the server reads the fields in order (it sets the file's rules).
  form.append('purpose', purpose);
  form.append('file', file, file.name);
  return post<PlatformImage>('/upload/platform_image', form, options);
}
