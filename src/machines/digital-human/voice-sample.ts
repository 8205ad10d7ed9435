import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { VoicePreviewReply } from '../../api/contract/digital-human';

/**
 * The voice preview of the digital-human video form: a voice saying the start of the
 * person's text (`POST /digital_human/voice_preview`, a signed URL). idle → loading → ready (the
 * player plays it) | failed. PREVIEW asks for a voice and a text; a newer PREVIEW replaces (and
 * aborts) one under way. STOP forgets it. `preview` is a placeholder actor (`.provide()`).
 */
export type VoiceSampleEvent =
  { type: 'PREVIEW'; voiceId: number; text: string } | { type: 'STOP' };

export interface VoiceSampleContext {
  voiceId: number | null;
  text: string;
  reply: VoicePreviewReply | null;
  /** A message id or the server's sentence. */
  error: string | null;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export const voiceSampleMachine = setup({
  types: {
    context: {} as VoiceSampleContext,
    events: {} as VoiceSampleEvent,
  },
  actors: {
    preview: fromPromise<VoicePreviewReply, { voiceId: number; text: string }>(async () => {
      throw new Error('voiceSample: provide the preview actor');
    }),
  },
  actions: {
    ask: assign(({ event }) => {
      assertEvent(event, 'PREVIEW');
      return { voiceId: event.voiceId, text: event.text, reply: null, error: null };
    }),
  },
}).createMachine({
  id: 'voiceSample',
  context: { voiceId: null, text: '', reply: null, error: null },
  initial: 'idle',
  on: {
    PREVIEW: { target: '.loading', reenter: true, actions: 'ask' },
    STOP: { target: '.idle', actions: assign({ voiceId: null, reply: null, error: null }) },
  },
  states: {
    idle: {},
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'preview',
        src: 'preview',
        input: ({ context }) => ({ voiceId: context.voiceId ?? 0, text: context.text }),
        onDone: { target: 'ready', actions: assign({ reply: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error) }),
        },
      },
    },
    ready: {},
    failed: {},
  },
});

export type VoiceSampleSnapshot = SnapshotFrom<typeof voiceSampleMachine>;
