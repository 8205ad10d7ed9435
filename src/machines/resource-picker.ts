import { assign, setup } from 'xstate';
import type { ResourceType } from '../api/contract/resources';
import { picked, type Picked } from './task-form';

/**
 * The resource picker of the create forms: a dialog over the caller's library that
 * ticks one resource (intro, outro, the clip's video) or several (a shot group's clips, music,
 * stickers). OPEN says what for (`slot`, the form's business), which types it offers and what is
 * already picked; TOGGLE ticks or unticks (one-only: the tick moves); CONFIRM closes with the
 * picked resources (`confirmed` counts, so the area hands them to the form), CLOSE without.
 */
export type PickerSlot =
  | { form: 'mixed'; part: 'group'; key: number }
  | { form: 'mixed'; part: 'intro' | 'outro' | 'music' | 'sticker' }
  | { form: 'clip'; part: 'video' | 'music' | 'sticker' }
  /** The digital-human video form's background music (one). */
  | { form: 'dhVideo'; part: 'music' }
  /** The video template dialog's background, cover, demo video or music (one). */
  | { form: 'dhTemplate'; part: 'backgroundImage' | 'cover' | 'demo' | 'music' }
  /** The release plan form's videos (several). */
  | { form: 'plan'; part: 'media' };

export type ResourcePickerEvent =
  | {
      type: 'OPEN';
      slot: PickerSlot;
      types: readonly ResourceType[];
      multiple: boolean;
      picked: readonly Picked[];
    }
  | { type: 'TOGGLE'; resource: Picked }
  | { type: 'CONFIRM' }
  | { type: 'CLOSE' };

export interface ResourcePickerContext {
  slot: PickerSlot | null;
  types: readonly ResourceType[];
  multiple: boolean;
  picked: Picked[];
  /** OPENs so far (the area sets the list's filters at each). */
  opened: number;
  /** CONFIRMs so far. */
  confirmed: number;
}

export const resourcePickerMachine = setup({
  types: {
    context: {} as ResourcePickerContext,
    events: {} as ResourcePickerEvent,
  },
}).createMachine({
  id: 'resourcePicker',
  context: { slot: null, types: [], multiple: false, picked: [], opened: 0, confirmed: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN: {
          target: 'open',
          actions: assign(({ context, event }) => ({
            slot: event.slot,
            types: event.types,
            multiple: event.multiple,
            picked: event.picked.map(picked),
            opened: context.opened + 1,
          })),
        },
      },
    },
    open: {
      tags: ['open'],
      on: {
        TOGGLE: {
          actions: assign({
            picked: ({ context, event }) => {
              const has = context.picked.some((p) => p.id === event.resource.id);
              if (has) return context.picked.filter((p) => p.id !== event.resource.id);
              const one = picked(event.resource);
              return context.multiple ? [...context.picked, one] : [one];
            },
          }),
        },
        CONFIRM: {
          target: 'closed',
          actions: assign({ confirmed: ({ context }) => context.confirmed + 1 }),
        },
        CLOSE: 'closed',
      },
    },
  },
});
