import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import {
  voicePreviewBody,
  type VoiceClone,
  type VoicePreviewReply,
} from '../../api/contract/digital-human';

/**
 * The voice preview dialog: OPEN with a ready voice → editing (a text of at most 100
 * characters, the contract's rule) → SPEAK → asking (the call) → playing (the sample's signed URL)
 * or back to editing with the server's refusal. A new text and SPEAK again asks again; CLOSE at any
 * time (a call under way is dropped). `preview` is a placeholder actor, its input the body.
 */
export type VoicePreviewEvent =
  | { type: 'OPEN'; voice: VoiceClone; text: string }
  | { type: 'TEXT'; text: string }
  | { type: 'SPEAK' }
  | { type: 'CLOSE' };

export interface VoicePreviewContext {
  voice: VoiceClone | null;
  text: string;
  /** The rules' message id for the text (after a SPEAK), or the server's refusal. */
  invalid: string | null;
  error: string | null;
  reply: VoicePreviewReply | null;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  return typeof msg === 'string' && msg ? msg : 'http.requestError';
};

const checkText = (voice: VoiceClone | null, text: string) => {
  const parsed = voicePreviewBody.safeParse({ voice_id: voice?.id, text });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'validation.invalid');
};

export const voicePreviewMachine = setup({
  types: { context: {} as VoicePreviewContext, events: {} as VoicePreviewEvent },
  actors: {
    preview: fromPromise<VoicePreviewReply, { voice_id: number; text: string }>(async () => {
      throw new Error('voicePreview: provide the preview actor');
    }),
  },
  guards: { valid: ({ context }) => checkText(context.voice, context.text) === null },
}).createMachine({
  id: 'voicePreview',
  context: { voice: null, text: '', invalid: null, error: null, reply: null },
  initial: 'closed',
  on: {
    CLOSE: '.closed',
    OPEN: {
      target: '.editing',
      actions: assign(({ event }) => ({
        voice: event.voice,
        text: event.text,
        invalid: null,
        error: null,
        reply: null,
      })),
    },
  },
  states: {
    closed: {},
    editing: {
      tags: ['open'],
      on: {
        TEXT: { actions: assign({ text: ({ event }) => event.text, invalid: null }) },
        SPEAK: [
          { guard: 'valid', target: 'asking' },
          {
            actions: assign({
              invalid: ({ context }) => checkText(context.voice, context.text),
            }),
          },
        ],
      },
    },
    asking: {
      tags: ['open', 'asking'],
      invoke: {
        id: 'preview',
        src: 'preview',
        input: ({ context }) => ({ voice_id: context.voice?.id ?? 0, text: context.text.trim() }),
        onDone: {
          target: 'playing',
          actions: assign({ reply: ({ event }) => event.output, error: null }),
        },
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => errorText(event.error), reply: null }),
        },
      },
    },
    playing: {
      tags: ['open'],
      on: {
        TEXT: {
          target: 'editing',
          actions: assign({ text: ({ event }) => event.text, invalid: null }),
        },
        SPEAK: [
          { guard: 'valid', target: 'asking' },
          {
            target: 'editing',
            actions: assign({ invalid: ({ context }) => checkText(context.voice, context.text) }),
          },
        ],
      },
    },
  },
});

export type VoicePreviewSnapshot = SnapshotFrom<typeof voicePreviewMachine>;
