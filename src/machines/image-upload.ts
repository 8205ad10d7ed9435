import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import {
  PLATFORM_IMAGE_RULES,
  type PlatformImagePurpose,
} from '../api/contract/platform-image-rules';
import type { PlatformImage } from '../api/contract/platform-images';

/**
 * One platform image field's upload (docs/domain.md §8 "Platform images"): a domain's logo or
 * favicon, an article's cover, the editor's inserted images. idle → PICK {file} → uploading (the
 * `upload` call) → idle, emitting `uploaded` with the image; its owner (the domain form, the
 * article form, the editor) takes the address from there — the machine keeps no value of its own.
 * A file whose name or size the purpose does not take is refused here (nothing sent); the server
 * checks the bytes. A failure keeps its message until the next PICK or RESET; RESET (the form
 * closed or opened anew) stops a call under way (its request is aborted) and forgets the error.
 *
 * Placeholder (`.provide()`): `upload` ({purpose, file} → the image), rejecting with `{msg}`.
 */

/** The file as the machine needs it (a browser File is one). */
export interface ImageFile {
  name: string;
  size: number;
}

/** Why a choice failed: a message id with its values, or the server's sentence (`values` absent). */
export interface ImageUploadError {
  text: string;
  values?: Record<string, string | number>;
}

export interface ImageUploadContext {
  purpose: PlatformImagePurpose;
  /** The file being sent. */
  file: ImageFile | null;
  error: ImageUploadError | null;
}

export type ImageUploadEvent = { type: 'PICK'; file: ImageFile } | { type: 'RESET' };

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
};

const formatMax = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;

/** What the purpose refuses of a file before it is sent (the server's own rules), or null. */
export function imageFileProblem(
  purpose: PlatformImagePurpose,
  file: ImageFile,
): ImageUploadError | null {
  const rule = PLATFORM_IMAGE_RULES[purpose];
  if (!rule.extensions.includes(extensionOf(file.name))) {
    return { text: 'imageField.wrongType', values: { extensions: rule.extensions.join(' ') } };
  }
  if (file.size > rule.maxBytes) {
    return { text: 'imageField.tooLarge', values: { max: formatMax(rule.maxBytes) } };
  }
  if (file.size === 0) return { text: 'imageField.empty' };
  return null;
}

const failureText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export const imageUploadMachine = setup({
  types: {
    context: {} as ImageUploadContext,
    events: {} as ImageUploadEvent,
    input: {} as { purpose: PlatformImagePurpose },
    /** An image is uploaded: its address for the owner, and the chosen file's name. */
    emitted: {} as { type: 'uploaded'; image: PlatformImage; name: string },
  },
  actors: {
    upload: fromPromise<PlatformImage, { purpose: PlatformImagePurpose; file: ImageFile }>(
      async () => {
        throw new Error('imageUpload: provide the upload actor');
      },
    ),
  },
  guards: {
    fileFits: ({ context, event }) => {
      assertEvent(event, 'PICK');
      return imageFileProblem(context.purpose, event.file) === null;
    },
  },
  actions: {
    forget: assign({ file: null, error: null }),
  },
}).createMachine({
  id: 'imageUpload',
  context: ({ input }) => ({ purpose: input.purpose, file: null, error: null }),
  initial: 'idle',
  on: { RESET: { target: '.idle', actions: 'forget' } },
  states: {
    idle: {
      on: {
        PICK: [
          {
            guard: 'fileFits',
            target: 'uploading',
            actions: assign({ file: ({ event }) => event.file, error: null }),
          },
          {
            actions: assign({
              file: null,
              error: ({ context, event }) => imageFileProblem(context.purpose, event.file),
            }),
          },
        ],
      },
    },
    uploading: {
      tags: ['uploading'],
      invoke: {
        id: 'upload',
        src: 'upload',
        input: ({ context }) => ({ purpose: context.purpose, file: context.file! }),
        onDone: {
          target: 'idle',
          actions: [
            emit(({ context, event }) => ({
              type: 'uploaded' as const,
              image: event.output,
              name: context.file?.name ?? '',
            })),
            assign({ file: null }),
          ],
        },
        onError: {
          target: 'idle',
          actions: assign({
            file: null,
            error: ({ event }) => ({ text: failureText(event.error) }),
          }),
        },
      },
    },
  },
});
