import { assertEvent, assign, setup, type SnapshotFrom } from 'xstate';
import { MEDIA_KIND, type Resource } from '../api/contract/resources';

/**
 * What a person does on the resource library page besides the list, the groups and
 * the dialogs (the generic list, load and dialog machines): the selection of resources for a
 * multi-select delete, and the preview of one resource. Two regions:
 * - `selection`: none | some. TOGGLE adds or removes one, SELECT_PAGE takes every shown one,
 *   CLEAR empties it; SHOWN (the list now shows these rows: new filters, a page, a reload after a
 *   change) keeps only the selected ones still shown, so a delete never names a resource the
 *   person cannot see.
 * - `preview`: closed | playing (video, audio: a player) | viewing (image) | describing (a font:
 *   its facts only). PREVIEW opens one (from closed: the preview is a modal dialog),
 *   CLOSE_PREVIEW closes it.
 */
export type ResourceLibraryEvent =
  | { type: 'TOGGLE'; id: number }
  | { type: 'SELECT_PAGE'; ids: readonly number[] }
  | { type: 'CLEAR' }
  | { type: 'SHOWN'; ids: readonly number[] }
  | { type: 'PREVIEW'; resource: Resource }
  | { type: 'CLOSE_PREVIEW' };

export interface ResourceLibraryContext {
  /** Ids in the order they were chosen. */
  selected: number[];
  preview: Resource | null;
}

const kindOf = (event: ResourceLibraryEvent) =>
  event.type === 'PREVIEW' ? MEDIA_KIND[event.resource.type] : null;

export const resourceLibraryMachine = setup({
  types: {
    context: {} as ResourceLibraryContext,
    events: {} as ResourceLibraryEvent,
  },
  guards: {
    /** TOGGLE of the only selected resource, or a SHOWN list that has none of the selected. */
    leavesNone: ({ context, event }) => {
      if (event.type === 'TOGGLE') {
        return context.selected.length === 1 && context.selected[0] === event.id;
      }
      if (event.type === 'SHOWN') return !context.selected.some((id) => event.ids.includes(id));
      return false;
    },
    pageHasRows: ({ event }) => event.type === 'SELECT_PAGE' && event.ids.length > 0,
    playable: ({ event }) => kindOf(event) === 'video' || kindOf(event) === 'audio',
    image: ({ event }) => kindOf(event) === 'image',
  },
  actions: {
    toggle: assign({
      selected: ({ context, event }) => {
        assertEvent(event, 'TOGGLE');
        return context.selected.includes(event.id)
          ? context.selected.filter((id) => id !== event.id)
          : [...context.selected, event.id];
      },
    }),
    selectPage: assign({
      selected: ({ context, event }) => {
        assertEvent(event, 'SELECT_PAGE');
        return [...context.selected, ...event.ids.filter((id) => !context.selected.includes(id))];
      },
    }),
    keepShown: assign({
      selected: ({ context, event }) => {
        assertEvent(event, 'SHOWN');
        return context.selected.filter((id) => event.ids.includes(id));
      },
    }),
    clear: assign({ selected: [] }),
    open: assign({
      preview: ({ event }) => {
        assertEvent(event, 'PREVIEW');
        return event.resource;
      },
    }),
    close: assign({ preview: null }),
  },
}).createMachine({
  id: 'resourceLibrary',
  context: { selected: [], preview: null },
  type: 'parallel',
  states: {
    selection: {
      initial: 'none',
      states: {
        none: {
          on: {
            TOGGLE: { target: 'some', actions: 'toggle' },
            SELECT_PAGE: { guard: 'pageHasRows', target: 'some', actions: 'selectPage' },
          },
        },
        some: {
          tags: ['selected'],
          on: {
            TOGGLE: [
              { guard: 'leavesNone', target: 'none', actions: 'clear' },
              { actions: 'toggle' },
            ],
            SELECT_PAGE: { actions: 'selectPage' },
            CLEAR: { target: 'none', actions: 'clear' },
            SHOWN: [
              { guard: 'leavesNone', target: 'none', actions: 'clear' },
              { actions: 'keepShown' },
            ],
          },
        },
      },
    },
    preview: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            PREVIEW: [
              { guard: 'playable', target: 'playing', actions: 'open' },
              { guard: 'image', target: 'viewing', actions: 'open' },
              { target: 'describing', actions: 'open' },
            ],
          },
        },
        playing: {
          tags: ['previewing'],
          on: { CLOSE_PREVIEW: { target: 'closed', actions: 'close' } },
        },
        viewing: {
          tags: ['previewing'],
          on: { CLOSE_PREVIEW: { target: 'closed', actions: 'close' } },
        },
        describing: {
          tags: ['previewing'],
          on: { CLOSE_PREVIEW: { target: 'closed', actions: 'close' } },
        },
      },
    },
  },
});

export type ResourceLibrarySnapshot = SnapshotFrom<typeof resourceLibraryMachine>;
