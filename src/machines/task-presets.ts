import { assign, fromPromise, setup } from 'xstate';
import type {
  VideoTaskPreset,
  VideoTaskPresetPage,
  VideoTaskSource,
} from '../api/contract/video-task-presets';

/**
 * A create form's presets and duplicates (docs/domain.md §9 "Presets, batches and previews"):
 * the person's named settings, listed when the form opens (LOAD), saved under a name
 * (SAVE_OPEN → naming → SAVE → saving: the list again), applied to the form (APPLY → applying) or
 * deleted (DELETE → confirmingDelete → CONFIRM → deleting); DUPLICATE fills the form with an
 * earlier task's body (loading it first). A source loaded (a preset's or a task's) counts up
 * `applied`: the area turns it into the form's draft. A refused call says why and changes
 * nothing (back to where it came from, the message kept until the next step).
 * Placeholder actors (`.provide()` by the area): `list`, `save {name}`, `preset {id}`,
 * `task {id}`, `remove {id}`.
 */
export type TaskPresetsEvent =
  | { type: 'LOAD' }
  | { type: 'SAVE_OPEN' }
  | { type: 'SAVE'; name: string }
  | { type: 'CANCEL' }
  | { type: 'APPLY'; id: number }
  | { type: 'DUPLICATE'; id: number }
  | { type: 'DELETE'; id: number }
  | { type: 'CONFIRM' };

export interface TaskPresetsContext {
  presets: VideoTaskPreset[];
  /** The preset asked to be deleted. */
  target: number | null;
  /** The last source loaded (a preset's or a task's) and how many were. */
  source: VideoTaskSource | null;
  applied: number;
  /** The last refusal (a sentence or a message id). */
  error: string | null;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export const taskPresetsMachine = setup({
  types: { context: {} as TaskPresetsContext, events: {} as TaskPresetsEvent },
  actors: {
    list: fromPromise<VideoTaskPresetPage>(async () => {
      throw new Error('taskPresets: provide the list actor');
    }),
    save: fromPromise<VideoTaskPreset, { name: string }>(async () => {
      throw new Error('taskPresets: provide the save actor');
    }),
    preset: fromPromise<VideoTaskSource, { id: number }>(async () => {
      throw new Error('taskPresets: provide the preset actor');
    }),
    task: fromPromise<VideoTaskSource, { id: number }>(async () => {
      throw new Error('taskPresets: provide the task actor');
    }),
    remove: fromPromise<unknown, { id: number }>(async () => {
      throw new Error('taskPresets: provide the remove actor');
    }),
  },
  actions: {
    refused: assign({ error: ({ event }) => errorText((event as { error?: unknown }).error) }),
    loaded: assign({
      source: (_, output: VideoTaskSource) => output,
      applied: ({ context }) => context.applied + 1,
      error: null,
    }),
  },
}).createMachine({
  id: 'taskPresets',
  context: { presets: [], target: null, source: null, applied: 0, error: null },
  initial: 'idle',
  on: { DUPLICATE: { target: '.duplicating' } },
  states: {
    idle: {
      on: {
        LOAD: 'listing',
        SAVE_OPEN: { target: 'naming', actions: assign({ error: null }) },
        APPLY: 'applying',
        DELETE: {
          target: 'confirmingDelete',
          actions: assign({ target: ({ event }) => event.id, error: null }),
        },
      },
    },
    listing: {
      tags: ['busy'],
      invoke: {
        id: 'list',
        src: 'list',
        onDone: { target: 'idle', actions: assign({ presets: ({ event }) => event.output.list }) },
        // An unread list is an empty one: nothing to apply, saving still works.
        onError: 'idle',
      },
    },
    naming: {
      tags: ['naming'],
      on: { SAVE: 'saving', CANCEL: { target: 'idle', actions: assign({ error: null }) } },
    },
    saving: {
      tags: ['naming', 'busy'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ event }) => ({ name: event.type === 'SAVE' ? event.name : '' }),
        onDone: { target: 'listing', actions: assign({ error: null }) },
        onError: { target: 'naming', actions: 'refused' },
      },
    },
    applying: {
      tags: ['busy'],
      invoke: {
        id: 'preset',
        src: 'preset',
        input: ({ event }) => ({ id: event.type === 'APPLY' ? event.id : 0 }),
        onDone: {
          target: 'idle',
          actions: { type: 'loaded', params: ({ event }) => event.output },
        },
        onError: { target: 'idle', actions: 'refused' },
      },
    },
    duplicating: {
      tags: ['busy'],
      invoke: {
        id: 'task',
        src: 'task',
        input: ({ event }) => ({ id: event.type === 'DUPLICATE' ? event.id : 0 }),
        onDone: {
          target: 'listing',
          actions: { type: 'loaded', params: ({ event }) => event.output },
        },
        onError: { target: 'idle', actions: 'refused' },
      },
    },
    confirmingDelete: {
      tags: ['confirmingDelete'],
      on: { CONFIRM: 'deleting', CANCEL: { target: 'idle', actions: assign({ target: null }) } },
    },
    deleting: {
      tags: ['confirmingDelete', 'busy'],
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => ({ id: context.target ?? 0 }),
        onDone: { target: 'listing', actions: assign({ target: null, error: null }) },
        onError: { target: 'idle', actions: [assign({ target: null }), 'refused'] },
      },
    },
  },
});
