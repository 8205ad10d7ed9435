import { assertEvent, assign, emit, fromCallback, fromPromise, setup } from 'xstate';
import type {
  Resource,
  ResourceAddBody,
  ResourceType,
  UploadTokenQuery,
  UploadTokenReply,
} from '../api/contract/resources';

/**
 * One file's upload: queued → requesting a grant → uploading (progress) ⇄ paused →
 * finishing (`POST /resource/add`: the server checks the content) → done | failed | refused |
 * cancelled. The uploads area (src/app/actors/uploads.ts) owns the actors, starts queued items
 * (START, at most two at a time) and keeps an unfinished upload's record across a page reload:
 * a restored item starts `interrupted` until the person chooses the same file again, then the
 * transfer resumes from where the server stands.
 *
 * - A failure whose outcome is unknown (lost connection, 5xx) is `failed` and may be retried:
 *   RETRY goes back to the step that failed (a transfer resumes; a lost `resource/add` is asked
 *   again). A refusal by the server's checks (`msg`, already in the viewer's locale) is `refused`:
 *   final.
 * - Leaving `uploading` stops the `transfer` actor (its cleanup aborts the requests; the bytes the
 *   server has stay there, so RESUME continues from its offset).
 * - The file itself (a browser File) is the area's: the machine knows its name, size and date.
 *
 * Placeholders (`.provide()`): `requestGrant`, `transfer` (input: the grant and checkpoint; sends
 * PROGRESS, CHECKPOINT, TRANSFERRED or TRANSFER_FAILED), `addResource`. The promise actors reject
 * with an {@link UploadFailure}.
 */

/** What the machine knows of the file (the File stays with the area). */
export interface UploadFile {
  name: string;
  size: number;
  lastModified: number;
}

/** Why a step failed: `msg` a message id or the server's sentence; `retry`: the outcome is unknown. */
export interface UploadFailure {
  msg: string;
  retry: boolean;
}

/** The parts of a multipart (S3) upload that are stored, with their ETags (tus keeps its own offset). */
export interface UploadCheckpoint {
  parts: { part_number: number; etag: string }[];
}

export interface UploadInput {
  /** The queue's id of the item. */
  id: string;
  file: UploadFile;
  resourceType: ResourceType;
  groupId?: number;
  /** A record kept across a page reload: the grant and how far the upload had come. */
  restored?: { grant: UploadTokenReply; sent: number; checkpoint: UploadCheckpoint | null };
}

export type UploadStep = 'grant' | 'transfer' | 'finish';

export interface UploadContext {
  id: string;
  file: UploadFile;
  resourceType: ResourceType;
  groupId: number | null;
  grant: UploadTokenReply | null;
  checkpoint: UploadCheckpoint | null;
  /** Bytes the server has (as last reported). */
  sent: number;
  /** Bytes per second over the last progress reports; null when unknown (not uploading). */
  rate: number | null;
  /** The last progress report (epoch ms), for the rate. */
  sample: { sent: number; at: number } | null;
  failure: UploadFailure | null;
  failedAt: UploadStep | null;
  /** The person chose another file than the interrupted one. */
  mismatch: boolean;
  resource: Resource | null;
}

export type UploadEvent =
  | { type: 'START' }
  | { type: 'PAUSE' }
  | { type: 'RESUME' }
  | { type: 'CANCEL' }
  | { type: 'RETRY' }
  | { type: 'FILE_CHOSEN'; file: UploadFile }
  | { type: 'PROGRESS'; sent: number; at: number }
  | { type: 'CHECKPOINT'; checkpoint: UploadCheckpoint }
  | { type: 'TRANSFERRED' }
  | { type: 'TRANSFER_FAILED'; failure: UploadFailure };

/** Told to the area: the upload became a resource. */
export type UploadEmitted = { type: 'added'; resource: Resource };

export interface TransferInput {
  id: string;
  grant: UploadTokenReply;
  checkpoint: UploadCheckpoint | null;
}

/** How much the newest rate counts against the running one. */
const RATE_WEIGHT = 0.3;

function failureOf(error: unknown): UploadFailure {
  const f = error as Partial<UploadFailure> | null;
  return typeof f?.msg === 'string'
    ? { msg: f.msg, retry: f.retry === true }
    : { msg: 'uploads.lost', retry: true };
}

export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    input: {} as UploadInput,
    emitted: {} as UploadEmitted,
  },
  actors: {
    requestGrant: fromPromise<UploadTokenReply, Omit<UploadTokenQuery, 'size'> & { size: number }>(
      async () => {
        throw new Error('upload: provide the requestGrant actor');
      },
    ),
    transfer: fromCallback<UploadEvent, TransferInput>(() => {
      throw new Error('upload: provide the transfer actor');
    }),
    addResource: fromPromise<Resource, ResourceAddBody>(async () => {
      throw new Error('upload: provide the addResource actor');
    }),
  },
  guards: {
    hasGrant: ({ context }) => context.grant !== null,
    sameFile: ({ context, event }) => {
      assertEvent(event, 'FILE_CHOSEN');
      const { file } = context;
      return (
        event.file.name === file.name &&
        event.file.size === file.size &&
        event.file.lastModified === file.lastModified
      );
    },
    lostTransfer: ({ event }) => {
      assertEvent(event, 'TRANSFER_FAILED');
      return event.failure.retry;
    },
    lost: ({ event }) => failureOf((event as { error?: unknown }).error).retry,
    finishFailed: ({ context }) => context.failedAt === 'finish',
  },
  actions: {
    fail: assign(({ event }, step: UploadStep) => ({
      failure:
        event.type === 'TRANSFER_FAILED'
          ? event.failure
          : failureOf((event as { error?: unknown }).error),
      failedAt: step,
      rate: null,
      sample: null,
    })),
    clearFailure: assign({ failure: null, failedAt: null }),
    stopRate: assign({ rate: null, sample: null }),
  },
}).createMachine({
  id: 'upload',
  context: ({ input }) => ({
    id: input.id,
    file: input.file,
    resourceType: input.resourceType,
    groupId: input.groupId ?? null,
    grant: input.restored?.grant ?? null,
    checkpoint: input.restored?.checkpoint ?? null,
    sent: input.restored?.sent ?? 0,
    rate: null,
    sample: null,
    failure: null,
    failedAt: null,
    mismatch: false,
    resource: null,
  }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'hasGrant', target: 'interrupted' }, { target: 'queued' }],
    },
    /** After a page reload: the person chooses the same file again to resume. */
    interrupted: {
      on: {
        FILE_CHOSEN: [
          {
            guard: 'sameFile',
            target: 'queued',
            actions: assign({ mismatch: false, file: ({ event }) => event.file }),
          },
          { actions: assign({ mismatch: true }) },
        ],
        CANCEL: 'cancelled',
      },
    },
    /** Waiting for a free slot (the area sends START). */
    queued: {
      tags: ['waiting'],
      on: {
        START: [{ guard: 'hasGrant', target: 'uploading' }, { target: 'requesting' }],
        CANCEL: 'cancelled',
      },
    },
    requesting: {
      tags: ['active'],
      invoke: {
        id: 'requestGrant',
        src: 'requestGrant',
        input: ({ context }) => ({
          type: context.resourceType,
          name: context.file.name,
          size: context.file.size,
        }),
        onDone: {
          target: 'uploading',
          actions: assign({ grant: ({ event }) => event.output, sent: 0, checkpoint: null }),
        },
        onError: [
          { guard: 'lost', target: 'failed', actions: { type: 'fail', params: 'grant' } },
          { target: 'refused', actions: { type: 'fail', params: 'grant' } },
        ],
      },
      on: { CANCEL: 'cancelled' },
    },
    uploading: {
      tags: ['active'],
      invoke: {
        id: 'transfer',
        src: 'transfer',
        input: ({ context }) => ({
          id: context.id,
          grant: context.grant!,
          checkpoint: context.checkpoint,
        }),
      },
      on: {
        PROGRESS: {
          actions: assign(({ context, event }) => {
            const last = context.sample;
            const elapsed = last ? event.at - last.at : 0;
            const now = elapsed > 0 ? ((event.sent - last!.sent) * 1000) / elapsed : null;
            return {
              sent: event.sent,
              sample: { sent: event.sent, at: event.at },
              rate:
                now === null
                  ? context.rate
                  : context.rate === null
                    ? now
                    : context.rate + RATE_WEIGHT * (now - context.rate),
            };
          }),
        },
        CHECKPOINT: { actions: assign({ checkpoint: ({ event }) => event.checkpoint }) },
        TRANSFERRED: { target: 'finishing', actions: 'stopRate' },
        TRANSFER_FAILED: [
          {
            guard: 'lostTransfer',
            target: 'failed',
            actions: { type: 'fail', params: 'transfer' },
          },
          { target: 'refused', actions: { type: 'fail', params: 'transfer' } },
        ],
        PAUSE: { target: 'paused', actions: 'stopRate' },
        CANCEL: 'cancelled',
      },
    },
    paused: {
      on: { RESUME: 'queued', CANCEL: 'cancelled' },
    },
    /** The server checks the content and makes the resource. */
    finishing: {
      tags: ['active'],
      invoke: {
        id: 'addResource',
        src: 'addResource',
        input: ({ context }) => ({
          upload_key: context.grant!.upload_key,
          name: context.file.name,
          ...(context.groupId !== null ? { group_id: context.groupId } : {}),
        }),
        onDone: {
          target: 'done',
          actions: [
            assign({
              resource: ({ event }) => event.output,
              sent: ({ context }) => context.file.size,
            }),
            emit(({ event }) => ({ type: 'added' as const, resource: event.output })),
          ],
        },
        onError: [
          { guard: 'lost', target: 'failed', actions: { type: 'fail', params: 'finish' } },
          { target: 'refused', actions: { type: 'fail', params: 'finish' } },
        ],
      },
    },
    failed: {
      on: {
        RETRY: [
          { guard: 'finishFailed', target: 'finishing', actions: 'clearFailure' },
          { target: 'queued', actions: 'clearFailure' },
        ],
        CANCEL: 'cancelled',
      },
    },
    refused: { type: 'final' },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

/** The share of the file the server has, 0–100 (whole numbers). */
export function percentOf(context: Pick<UploadContext, 'sent' | 'file'>): number {
  if (context.file.size <= 0) return 0;
  return Math.min(100, Math.floor((context.sent * 100) / context.file.size));
}
