import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { transferCardsBody } from '../../api/contract/cards';
import {
  fieldErrors,
  freshForm,
  setField,
  type FieldErrors,
  type SetFieldEvent,
} from '../draft-dialog';

/**
 * Giving cards to a user below the caller: closed → picking (the target) → confirming →
 * submitting → done (how many moved) | failed (the server's sentence; back to picking, or retry).
 * The cards are chosen before the dialog opens: the rows selected in the list, or a batch number.
 * No value moves (the platform's cards account holds it), so a retry needs no idempotency key: a
 * repeated selection is refused whole by the server once the cards are no longer the caller's.
 * The picker's form is the machine's (docs/architecture.md "Forms"): OPEN starts it afresh, SET
 * changes the user chosen (or the search keyword) and answers its message, PICK (Next) checks it
 * with the contract's `transferCardsBody` (no user: the field's message, nothing confirmed);
 * back from the confirmation the choice is kept.
 * `submit` is a placeholder actor (`.provide()`); its input is `{ selection, target }`.
 */
export type CardSelection = { ids: number[] } | { batchNo: string };

export interface TransferTarget {
  id: number;
  /** How the person picked the user ("name (account)"), shown on the confirmation. */
  label: string;
}

export interface CardTransferForm {
  /** The search of the picker's user list, as typed. */
  keyword: string;
  /** The user chosen in the picker. */
  target: TransferTarget | null;
}

const EMPTY: CardTransferForm = { keyword: '', target: null };

export type CardTransferEvent =
  | { type: 'OPEN'; selection: CardSelection }
  | SetFieldEvent<CardTransferForm>
  | { type: 'PICK' }
  | { type: 'BACK' }
  | { type: 'SUBMIT' }
  | { type: 'RETRY' }
  | { type: 'CLOSE' };

export interface CardTransferContext {
  form: CardTransferForm;
  /** Per field of the body (`to_user_id`): a validation message id. */
  errors: FieldErrors;
  selection: CardSelection | null;
  target: TransferTarget | null;
  /** How many cards moved. */
  count: number | null;
  /** A message id or the server's sentence. */
  error: string | null;
}

export interface CardTransferInput {
  selection: CardSelection;
  target: TransferTarget;
}

/** An empty selection cannot be given: nothing to open the dialog for. */
export function selectionIsEmpty(selection: CardSelection): boolean {
  return 'ids' in selection ? selection.ids.length === 0 : selection.batchNo.trim() === '';
}

/** The body's messages for the form (the selection is the dialog's, checked when it opened). */
function formErrors(context: CardTransferContext): FieldErrors {
  const selection = context.selection ?? { ids: [] };
  return fieldErrors(transferCardsBody, {
    ...('ids' in selection ? { ids: selection.ids } : { batch_no: selection.batchNo }),
    // No user chosen: an empty field (the contract's message, not a union's).
    to_user_id: context.form.target?.id ?? '',
  });
}

export const cardTransferMachine = setup({
  types: {
    context: {} as CardTransferContext,
    events: {} as CardTransferEvent,
  },
  actors: {
    submit: fromPromise<{ count: number }, CardTransferInput>(async () => {
      throw new Error('cardTransfer: provide the submit actor');
    }),
  },
  guards: {
    hasCards: ({ event }) => {
      assertEvent(event, 'OPEN');
      return !selectionIsEmpty(event.selection);
    },
    valid: ({ context }) => Object.keys(formErrors(context)).length === 0,
  },
  actions: {
    pick: assign({ target: ({ context }) => context.form.target, error: null }),
  },
}).createMachine({
  id: 'cardTransfer',
  context: { ...freshForm(EMPTY), selection: null, target: null, count: null, error: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN: {
          guard: 'hasCards',
          target: 'picking',
          actions: assign(({ event }) => ({
            ...freshForm(EMPTY),
            selection: event.selection,
            target: null,
            count: null,
            error: null,
          })),
        },
      },
    },
    picking: {
      tags: ['open'],
      on: {
        SET: {
          actions: assign(({ context, event }) => {
            const next = setField(context, event.field, event.value);
            // The user chosen answers the body's `to_user_id` message.
            if (event.field !== 'target') return next;
            const { to_user_id: _answered, ...errors } = next.errors;
            return { ...next, errors };
          }),
        },
        PICK: [
          { guard: 'valid', target: 'confirming', actions: 'pick' },
          { actions: assign({ errors: ({ context }) => formErrors(context) }) },
        ],
        CLOSE: 'closed',
      },
    },
    confirming: {
      tags: ['open'],
      on: { BACK: 'picking', SUBMIT: 'submitting', CLOSE: 'closed' },
    },
    submitting: {
      tags: ['open', 'submitting'],
      entry: assign({ error: null }),
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => ({
          selection: context.selection as CardSelection,
          target: context.target as TransferTarget,
        }),
        onDone: { target: 'done', actions: assign({ count: ({ event }) => event.output.count }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) =>
              event.error instanceof Error ? event.error.message : 'http.requestError',
          }),
        },
      },
    },
    failed: {
      tags: ['open'],
      on: { RETRY: 'submitting', BACK: 'picking', CLOSE: 'closed' },
    },
    done: {
      tags: ['open'],
      on: { CLOSE: 'closed' },
    },
  },
});

export type CardTransferSnapshot = SnapshotFrom<typeof cardTransferMachine>;
