import { assertEvent, assign, fromPromise, setup } from 'xstate';

/**
 * One form's submission: editing → submitting → done (or back to editing with the error).
 * The `submit` actor is injected by the view with `.provide()`; its input is `{ payload }`.
 */
export type FormSubmitEvent = { type: 'SUBMIT'; payload: unknown } | { type: 'RESET' };

export const formSubmitMachine = setup({
  types: {
    context: {} as { error: string | null; result: unknown; payload: unknown },
    events: {} as FormSubmitEvent,
  },
  actors: {
    submit: fromPromise<unknown, { payload: unknown }>(async () => {
      throw new Error('formSubmit: provide the submit actor');
    }),
  },
}).createMachine({
  id: 'formSubmit',
  context: { error: null, result: null, payload: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        SUBMIT: {
          target: 'submitting',
          actions: assign({
            payload: ({ event }) => {
              assertEvent(event, 'SUBMIT');
              return event.payload;
            },
            error: null,
          }),
        },
      },
    },
    submitting: {
      tags: ['submitting'],
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => ({ payload: context.payload }),
        onDone: { target: 'done', actions: assign({ result: ({ event }) => event.output }) },
        onError: {
          target: 'editing',
          actions: assign({
            error: ({ event }) =>
              event.error instanceof Error ? event.error.message : 'http.requestError',
          }),
        },
      },
    },
    done: {
      on: { RESET: { target: 'editing', actions: assign({ result: null, payload: null }) } },
    },
  },
});
