/**
 * The upload of a platform image field (docs/domain.md §8 "Platform images"), made by the areas
 * whose forms have one (domains, content): a module of its own, so that the areas without one do
 * not load the machine.
 */
import { createActor, fromPromise } from 'xstate';
import type { PlatformImagePurpose } from '../../api/contract/platform-image-rules';
import type { PlatformImage } from '../../api/contract/platform-images';
import { imageUploadMachine } from '../../machines/image-upload';

/**
 * A platform image field's upload (the image-upload machine): `upload` sends the file (aborted
 * with `signal` when the upload is cancelled or reset).
 */
export function imageUploadActor(
  purpose: PlatformImagePurpose,
  upload: (
    purpose: PlatformImagePurpose,
    file: File,
    signal: AbortSignal,
  ) => Promise<PlatformImage>,
) {
  return createActor(
    imageUploadMachine.provide({
      actors: {
        upload: fromPromise(({ input, signal }) =>
          // The machine knows the file's name and size; the view sent the browser's File.
          upload(input.purpose, input.file as File, signal),
        ),
      },
    }),
    { input: { purpose } },
  );
}
export type ImageUploadActor = ReturnType<typeof imageUploadActor>;
