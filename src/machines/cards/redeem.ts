import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { useCardBody, type UseCardReply } from '../../api/contract/cards';
import {
  fieldErrors,
  freshForm,
  setField,
  type FieldErrors,
  type SetFieldEvent,
} from '../draft-dialog';

/**
 * Redeeming a card (partner, merchant): closed → editing (card number and password) → submitting
 * → done (what was credited) | failed (the server's sentence: not found, already used, void,
 * expired, too many attempts). From failed the person corrects the entry (back to editing, the
 * values kept) or closes; a card is redeemed at most once on the server however often it is sent.
 * The typed form is the machine's (docs/architecture.md "Forms"): OPEN and AGAIN start it
 * afresh, SET changes a field and answers its message, SUBMIT checks it with the contract's
 * `useCardBody` (a refusal stays in editing with each field's message id, nothing is sent).
 * `redeem` is a placeholder actor (`.provide()`); its input is the entry.
 */
export interface RedeemForm {
  card_no: string;
  card_pwd: string;
}

const EMPTY: RedeemForm = { card_no: '', card_pwd: '' };

/** The entry the form makes, as the API reads it (the password without case, spaces or dashes). */
function entryOf(form: RedeemForm): RedeemEntry {
  const parsed = useCardBody.safeParse(form);
  // Only a checked form is sent (the `valid` guard); the typed values otherwise.
  return parsed.success
    ? { cardNo: parsed.data.card_no, cardPwd: parsed.data.card_pwd }
    : { cardNo: form.card_no, cardPwd: form.card_pwd };
}

export interface RedeemEntry {
  cardNo: string;
  cardPwd: string;
}

export type RedeemEvent =
  | { type: 'OPEN' }
  | SetFieldEvent<RedeemForm>
  | { type: 'SUBMIT' }
  | { type: 'EDIT' }
  | { type: 'AGAIN' }
  | { type: 'CLOSE' };

export interface RedeemContext {
  form: RedeemForm;
  /** Per field: a validation message id. */
  errors: FieldErrors;
  /** The entry last sent (kept when the person corrects it after a refusal). */
  entry: RedeemEntry | null;
  result: UseCardReply | null;
  /** A message id or the server's sentence. */
  error: string | null;
  /** Cards redeemed since the dialog opened (the page reloads balances and lists after one). */
  redeemed: number;
}

export const redeemMachine = setup({
  types: {
    context: {} as RedeemContext,
    events: {} as RedeemEvent,
  },
  actors: {
    redeem: fromPromise<UseCardReply, RedeemEntry>(async () => {
      throw new Error('redeem: provide the redeem actor');
    }),
  },
  guards: {
    valid: ({ context }) => Object.keys(fieldErrors(useCardBody, context.form)).length === 0,
  },
}).createMachine({
  id: 'redeemCard',
  context: { ...freshForm(EMPTY), entry: null, result: null, error: null, redeemed: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN: {
          target: 'editing',
          actions: assign({
            ...freshForm(EMPTY),
            entry: null,
            result: null,
            error: null,
            redeemed: 0,
          }),
        },
      },
    },
    editing: {
      tags: ['open'],
      on: {
        SET: {
          actions: assign(({ context, event }) => setField(context, event.field, event.value)),
        },
        SUBMIT: [
          {
            guard: 'valid',
            target: 'submitting',
            actions: assign({ entry: ({ context }) => entryOf(context.form), error: null }),
          },
          {
            actions: assign({ errors: ({ context }) => fieldErrors(useCardBody, context.form) }),
          },
        ],
        CLOSE: 'closed',
      },
    },
    submitting: {
      tags: ['open', 'submitting'],
      invoke: {
        id: 'redeem',
        src: 'redeem',
        input: ({ context }) => context.entry as RedeemEntry,
        onDone: {
          target: 'done',
          actions: assign({
            result: ({ event }) => event.output,
            redeemed: ({ context }) => context.redeemed + 1,
          }),
        },
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
      on: { EDIT: 'editing', CLOSE: 'closed' },
    },
    done: {
      tags: ['open'],
      on: {
        AGAIN: {
          target: 'editing',
          actions: assign({ ...freshForm(EMPTY), entry: null, result: null }),
        },
        CLOSE: 'closed',
      },
    },
  },
});

export type RedeemSnapshot = SnapshotFrom<typeof redeemMachine>;
