import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { AuthUrlReply, BatchLinkInfo } from '../api/contract/matrix';

/**
 * The public page of a batch authorisation link (/batchAuthorization?token=…, no login;
 * docs/domain.md §19 "Batch authorisation"). OPEN gives the address's token and what the
 * platform's return says (`bound=<id>` or `error=<message id>`, else nothing):
 * - idle → loading (the `info` call: whose link, which platform, its state) → ready, or refused
 *   (no token in the address, an unknown token, throttled: the server's sentence);
 * - a return with `bound` → bound (the account is linked to the link's owner: the page says so,
 *   with the owner's name once `info` answered, without it when `info` was refused);
 * - a return with `error` → ready with the console's text of the error (`returnError`);
 * - ready: AUTHORISE (only when the link's state is valid) → authorising (the `authUrl` call) →
 *   leaving (the `navigate` action sends the browser to the platform), or back to ready with the
 *   refusal (`authError`, e.g. the link expired meanwhile; AUTHORISE tries again).
 * OPEN of another token starts again. `info` and `authUrl` are placeholders and `navigate` a
 * placeholder action (`.provide()`).
 */
export interface BatchAuthorizationContext {
  token: string;
  /** The platform's return: an account bound, or the refusal's message id. */
  returned: { bound: boolean; error: string | null };
  info: BatchLinkInfo | null;
  /** Why `info` was refused (a message id or the server's sentence). */
  refusal: string | null;
  /** The console's text (a message id) of the return's error. */
  returnError: string | null;
  /** Why the last `authUrl` call failed. */
  authError: string | null;
}

export type BatchAuthorizationEvent =
  { type: 'OPEN'; token: string; bound: boolean; error: string | null } | { type: 'AUTHORISE' };

/**
 * The platform's refusals that the page words itself: the return's `error` is `matrix.<key>` (the
 * server's message id); the page shows its own text (its part of the catalogue loads without a
 * login, the matrix part does not).
 */
export const RETURN_ERRORS: Readonly<Record<string, string>> = {
  authStateInvalid: 'batchAuth.errorStateInvalid',
  authDeclined: 'batchAuth.errorDeclined',
  accountBoundElsewhere: 'batchAuth.errorBoundElsewhere',
  platformNotConfigured: 'batchAuth.errorNotConfigured',
  batchLinkExpired: 'batchAuth.errorExpired',
  batchLinkRevoked: 'batchAuth.errorRevoked',
  batchLinkUsedUp: 'batchAuth.errorUsedUp',
};
/** What any other refusal id shows (never the raw id). */
export const RETURN_FAILED = 'batchAuth.errorFailed';
/** What an address without a token shows. */
export const NO_TOKEN = 'batchAuth.noToken';

const SERVER_PREFIX = 'matrix.';

/** The console's text (a message id) of the return's `error`. */
export function returnErrorText(error: string): string {
  const key = error.startsWith(SERVER_PREFIX) ? error.slice(SERVER_PREFIX.length) : '';
  return Object.hasOwn(RETURN_ERRORS, key) ? RETURN_ERRORS[key] : RETURN_FAILED;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export const batchAuthorizationMachine = setup({
  types: {
    context: {} as BatchAuthorizationContext,
    events: {} as BatchAuthorizationEvent,
  },
  actors: {
    info: fromPromise<BatchLinkInfo, { token: string }>(async () => {
      throw new Error('batchAuthorization: provide the info actor');
    }),
    authUrl: fromPromise<AuthUrlReply, { token: string }>(async () => {
      throw new Error('batchAuthorization: provide the authUrl actor');
    }),
  },
  actions: {
    /** Sends the browser to the platform's authorisation page. */
    navigate: (_, _params: { url: string }) => {
      throw new Error('batchAuthorization: provide the navigate action');
    },
    open: assign(({ event }) => {
      assertEvent(event, 'OPEN');
      return {
        token: event.token.trim(),
        returned: { bound: event.bound, error: event.error },
        info: null,
        refusal: null,
        returnError: event.error !== null && !event.bound ? returnErrorText(event.error) : null,
        authError: null,
      };
    }),
  },
  guards: {
    hasToken: ({ context }) => context.token !== '',
    returnedBound: ({ context }) => context.returned.bound,
    usable: ({ context }) => context.info?.state === 'valid',
  },
}).createMachine({
  id: 'batchAuthorization',
  context: {
    token: '',
    returned: { bound: false, error: null },
    info: null,
    refusal: null,
    returnError: null,
    authError: null,
  },
  initial: 'idle',
  on: { OPEN: { target: '.checking', actions: 'open' } },
  states: {
    idle: {},
    checking: {
      always: [
        { guard: 'hasToken', target: 'loading' },
        { target: 'refused', actions: assign({ refusal: NO_TOKEN }) },
      ],
    },
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'info',
        src: 'info',
        input: ({ context }) => ({ token: context.token }),
        onDone: [
          {
            guard: 'returnedBound',
            target: 'bound',
            actions: assign({ info: ({ event }) => event.output }),
          },
          { target: 'ready', actions: assign({ info: ({ event }) => event.output }) },
        ],
        onError: [
          { guard: 'returnedBound', target: 'bound' },
          {
            target: 'refused',
            actions: assign({ refusal: ({ event }) => errorText(event.error) }),
          },
        ],
      },
    },
    refused: {},
    ready: {
      on: {
        AUTHORISE: {
          guard: 'usable',
          target: 'authorising',
          actions: assign({ authError: null, returnError: null }),
        },
      },
    },
    authorising: {
      tags: ['authorising'],
      invoke: {
        id: 'authUrl',
        src: 'authUrl',
        input: ({ context }) => ({ token: context.token }),
        onDone: {
          target: 'leaving',
          actions: { type: 'navigate', params: ({ event }) => ({ url: event.output.url }) },
        },
        onError: {
          target: 'ready',
          actions: assign({ authError: ({ event }) => errorText(event.error) }),
        },
      },
    },
    leaving: { tags: ['authorising'] },
    bound: {},
  },
});

export type BatchAuthorizationSnapshot = SnapshotFrom<typeof batchAuthorizationMachine>;
