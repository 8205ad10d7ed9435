import { assertEvent, assign, fromPromise, raise, setup, type SnapshotFrom } from 'xstate';
import { batchLinkAddBody, type BatchLink, type BatchLinkAddBody } from '../api/contract/matrix';
import { setField, type FieldErrors, type SetFieldEvent } from './draft-dialog';

/**
 * The batch authorisation panel of the accounts page (/matrix-distribution/authorization,
 * docs/domain.md §19 "Batch authorisation"); the list of links is the generic list machine.
 * `closed` | `open`, and while open three regions:
 * - `make`: idle | saving (the `addLink` call) | failed (the refusal shows in the form; MAKE tries
 *   again). A saved link counts in `saved` (the area reloads the list) and its QR code is shown.
 *   The form is the machine's draft (docs/architecture.md "Forms"): OPEN starts it afresh, SET
 *   changes a field, MAKE checks it with the contract (`batchLinkAddBody`): a refusal stays in the
 *   form with each field's message id and nothing is sent.
 * - `revoke`: idle | confirming (the confirm dialog names the link) | revoking (the `revoke`
 *   call) | failed (the refusal shows in the dialog; CONFIRM_REVOKE tries again). CANCEL_REVOKE
 *   closes the dialog; a revoked link counts in `revoked` (the area reloads the list).
 * - `qr`: none | drawing (the `drawQr` call: the link's URL as a PNG data URL) | shown (with
 *   DOWNLOAD: the `download` action saves the PNG) | failed. SHOW_QR of another link draws it;
 *   HIDE_QR hides it.
 * CLOSE leaves everything (a call under way is abandoned: the list is reloaded on the next OPEN).
 * `addLink`, `revoke` and `drawQr` are placeholders, and `download` a placeholder action
 * (`.provide()`).
 */
export interface BatchLinkRequest {
  /** 1–168. */
  expiresHours: number;
  /** 1–1000, null: no limit. */
  maxUses: number | null;
  /** The group the accounts bound through the link go into (null: ungrouped). */
  groupId: number | null;
}

/** A link whose QR code is asked for: its id (the file's name) and its URL. */
export interface QrLink {
  id: number;
  url: string;
}

/** The make form as typed. */
export interface BatchLinkForm {
  hours: string;
  unlimited: boolean;
  uses: string;
  /** A group's id, '0': ungrouped. */
  group: string;
}

const FRESH_FORM: BatchLinkForm = { hours: '24', unlimited: true, uses: '10', group: '0' };

/** The form's request, or its fields' message ids (keyed by form field) as the contract says. */
function checkLinkForm(
  form: BatchLinkForm,
): { request: BatchLinkRequest } | { errors: FieldErrors } {
  const checked = batchLinkAddBody.safeParse({
    platform: 'douyin',
    expires_hours: form.hours.trim(),
    ...(form.unlimited ? {} : { max_uses: form.uses.trim() }),
  });
  if (!checked.success) {
    const errors: FieldErrors = {};
    for (const issue of checked.error.issues) {
      const field = issue.path[0] === 'max_uses' ? 'uses' : 'hours';
      errors[field] ??= issue.message;
    }
    return { errors };
  }
  return {
    request: {
      expiresHours: checked.data.expires_hours,
      maxUses: checked.data.max_uses ?? null,
      groupId: Number(form.group) > 0 ? Number(form.group) : null,
    },
  };
}

export type MatrixBatchLinksEvent =
  | { type: 'OPEN' }
  | { type: 'CLOSE' }
  | SetFieldEvent<BatchLinkForm>
  /** With a request: that one; without: the form's, checked. */
  | { type: 'MAKE'; request?: BatchLinkRequest }
  | { type: 'ASK_REVOKE'; link: BatchLink }
  | { type: 'CONFIRM_REVOKE' }
  | { type: 'CANCEL_REVOKE' }
  | { type: 'SHOW_QR'; link: QrLink }
  | { type: 'HIDE_QR' }
  | { type: 'DOWNLOAD' };

export interface MatrixBatchLinksContext {
  /** The make form as typed, and each field's message id of its last refused MAKE. */
  form: BatchLinkForm;
  formErrors: FieldErrors;
  /** The last link asked for (the form keeps it after a refusal). */
  request: BatchLinkRequest | null;
  /** Why the last `addLink` call failed (a message id or the server's sentence). */
  makeError: string | null;
  /** Links made since the panel's actor started (the area reloads the list on each). */
  saved: number;
  /** The link the revoke dialog is about. */
  revoking: BatchLink | null;
  revokeError: string | null;
  /** Links revoked since the actor started (the area reloads the list on each). */
  revoked: number;
  /** The link whose QR code is drawn or shown, and the PNG (a data URL) once drawn. */
  qr: (QrLink & { image: string | null }) | null;
}

export const QR_FAILED = 'matrix.batchQrFailed';

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

/** The call's body of a request (no `max_uses`: no limit; no `group_id`: ungrouped). */
export function addBody(request: BatchLinkRequest): BatchLinkAddBody {
  return {
    platform: 'douyin',
    expires_hours: request.expiresHours,
    ...(request.maxUses !== null ? { max_uses: request.maxUses } : {}),
    ...(request.groupId !== null ? { group_id: request.groupId } : {}),
  };
}

/** The downloaded file's name of a link's QR code. */
export const qrFileName = (id: number) => `batch-authorization-${id}.png`;

/** MAKE: asks when its request (or the checked form) is sendable, else stays with the messages. */
const MAKE = [
  { guard: 'sendable' as const, target: 'saving', actions: 'ask' as const },
  { actions: 'ask' as const },
];

export const matrixBatchLinksMachine = setup({
  types: {
    context: {} as MatrixBatchLinksContext,
    events: {} as MatrixBatchLinksEvent,
  },
  guards: {
    sendable: ({ context, event }) =>
      event.type === 'MAKE' && (!!event.request || 'request' in checkLinkForm(context.form)),
  },
  actors: {
    addLink: fromPromise<{ id: number; url: string; expires_at: number }, BatchLinkAddBody>(
      async () => {
        throw new Error('matrixBatchLinks: provide the addLink actor');
      },
    ),
    revoke: fromPromise<unknown, { id: number }>(async () => {
      throw new Error('matrixBatchLinks: provide the revoke actor');
    }),
    drawQr: fromPromise<string, { url: string }>(async () => {
      throw new Error('matrixBatchLinks: provide the drawQr actor');
    }),
  },
  actions: {
    /** Saves the PNG (a data URL) under the file name. */
    download: (_, _params: { href: string; fileName: string }) => {
      throw new Error('matrixBatchLinks: provide the download action');
    },
    ask: assign(({ context, event }) => {
      assertEvent(event, 'MAKE');
      const checked = event.request ? { request: event.request } : checkLinkForm(context.form);
      return 'request' in checked
        ? { request: checked.request, formErrors: {}, makeError: null }
        : { formErrors: checked.errors };
    }),
    set: assign(({ context, event }) => {
      assertEvent(event, 'SET');
      const next = setField(
        { form: context.form, errors: context.formErrors },
        event.field,
        event.value,
      );
      // The uses' message goes with the "no limit" switch too (it decides whether uses count).
      const { uses: _uses, ...others } = next.errors;
      return { form: next.form, formErrors: event.field === 'unlimited' ? others : next.errors };
    }),
    askRevoke: assign({
      revoking: ({ event }) => {
        assertEvent(event, 'ASK_REVOKE');
        return event.link;
      },
      revokeError: null,
    }),
    pickQr: assign({
      qr: ({ event }) => {
        assertEvent(event, 'SHOW_QR');
        return { ...event.link, image: null };
      },
    }),
  },
}).createMachine({
  id: 'matrixBatchLinks',
  context: {
    form: FRESH_FORM,
    formErrors: {},
    request: null,
    makeError: null,
    saved: 0,
    revoking: null,
    revokeError: null,
    revoked: 0,
    qr: null,
  },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN: {
          target: 'open',
          actions: assign({
            form: FRESH_FORM,
            formErrors: {},
            request: null,
            makeError: null,
            revoking: null,
            qr: null,
          }),
        },
      },
    },
    open: {
      tags: ['panel'],
      type: 'parallel',
      on: { CLOSE: 'closed', SET: { actions: 'set' } },
      states: {
        make: {
          initial: 'idle',
          states: {
            idle: { on: { MAKE: MAKE } },
            saving: {
              tags: ['saving'],
              invoke: {
                id: 'addLink',
                src: 'addLink',
                input: ({ context }) => addBody(context.request!),
                onDone: {
                  target: 'idle',
                  actions: [
                    assign({ saved: ({ context }) => context.saved + 1 }),
                    raise(({ event }) => ({
                      type: 'SHOW_QR' as const,
                      link: { id: event.output.id, url: event.output.url },
                    })),
                  ],
                },
                onError: {
                  target: 'failed',
                  actions: assign({ makeError: ({ event }) => errorText(event.error) }),
                },
              },
            },
            failed: { on: { MAKE: MAKE } },
          },
        },
        revoke: {
          initial: 'idle',
          states: {
            idle: { on: { ASK_REVOKE: { target: 'confirming', actions: 'askRevoke' } } },
            confirming: {
              tags: ['revokeDialog'],
              on: { CONFIRM_REVOKE: 'revoking', CANCEL_REVOKE: 'idle' },
            },
            revoking: {
              tags: ['revokeDialog', 'revoking'],
              invoke: {
                id: 'revoke',
                src: 'revoke',
                input: ({ context }) => ({ id: context.revoking!.id }),
                onDone: {
                  target: 'idle',
                  actions: assign({ revoked: ({ context }) => context.revoked + 1 }),
                },
                onError: {
                  target: 'failed',
                  actions: assign({ revokeError: ({ event }) => errorText(event.error) }),
                },
              },
            },
            failed: {
              tags: ['revokeDialog'],
              on: { CONFIRM_REVOKE: 'revoking', CANCEL_REVOKE: 'idle' },
            },
          },
        },
        qr: {
          initial: 'none',
          on: { SHOW_QR: { target: '.drawing', actions: 'pickQr' } },
          states: {
            none: {},
            drawing: {
              tags: ['qr'],
              invoke: {
                id: 'drawQr',
                src: 'drawQr',
                input: ({ context }) => ({ url: context.qr!.url }),
                onDone: {
                  target: 'shown',
                  actions: assign({
                    qr: ({ context, event }) => ({ ...context.qr!, image: event.output }),
                  }),
                },
                onError: 'failed',
              },
              on: { HIDE_QR: { target: 'none', actions: assign({ qr: null }) } },
            },
            shown: {
              tags: ['qr'],
              on: {
                DOWNLOAD: {
                  actions: {
                    type: 'download',
                    params: ({ context }) => ({
                      href: context.qr!.image!,
                      fileName: qrFileName(context.qr!.id),
                    }),
                  },
                },
                HIDE_QR: { target: 'none', actions: assign({ qr: null }) },
              },
            },
            failed: {
              tags: ['qr'],
              on: { HIDE_QR: { target: 'none', actions: assign({ qr: null }) } },
            },
          },
        },
      },
    },
  },
});

export type MatrixBatchLinksSnapshot = SnapshotFrom<typeof matrixBatchLinksMachine>;
