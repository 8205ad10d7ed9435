import { assertEvent, assign, fromPromise, raise, setup, type SnapshotFrom } from 'xstate';
import type { AuthUrlBody, AuthUrlReply, SocialPlatformId } from '../api/contract/matrix';

/**
 * What a person does on the authorised accounts page (/matrix-distribution/authorization) besides
 * the list, the groups and the dialogs (the generic list, load and dialog machines). Four regions:
 * - `selection`: none | some, as on the resource library: TOGGLE, SELECT_PAGE, CLEAR; SHOWN (the
 *   list now shows these rows) keeps only the selected ones still shown, so a bulk delete or move
 *   never names an account the person cannot see.
 * - `bind`: idle | choosing (the bind dialog: platform, group) | asking (the `authUrl` call) |
 *   leaving (the browser is sent to the platform: the `navigate` action) | failed (the refusal is
 *   shown in the dialog; BIND tries again). The dialog's draft is `bind`: OPEN_BIND starts it
 *   afresh (Douyin, ungrouped), SET_BIND changes it, BIND asks with it (or with the request it
 *   names: a row's "authorise again", from idle).
 * - `refresh`: idle | refreshing (the `refresh` call for one account; one at a time). Its outcome is
 *   a notice: the console's "refreshed" text, or the server's refusal.
 * - `notice`: none | shown: the page's one notice (a refresh's outcome, or what the platform's
 *   return says: RETURNED `?bound=<id>` or `?error=<message id>`; an id the console does not know
 *   shows the generic "binding failed", never the raw id). DISMISS hides it.
 * `authUrl` and `refresh` are placeholders and `navigate` a placeholder action (`.provide()`).
 */
export interface BindRequest {
  platform: SocialPlatformId;
  /** The group the new account goes into (null: ungrouped). */
  groupId: number | null;
}

export interface Notice {
  tone: 'success' | 'error';
  /** A message id or the server's sentence. */
  text: string;
  values?: Record<string, string | number>;
}

export type MatrixAccountsEvent =
  | { type: 'TOGGLE'; id: number }
  | { type: 'SELECT_PAGE'; ids: readonly number[] }
  | { type: 'CLEAR' }
  | { type: 'SHOWN'; ids: readonly number[] }
  | { type: 'OPEN_BIND' }
  | { type: 'CLOSE_BIND' }
  | { type: 'BIND'; request?: BindRequest }
  | { type: 'SET_BIND'; change: Partial<BindRequest> }
  | { type: 'REFRESH'; id: number; name: string }
  | { type: 'RETURNED'; bound: number | null; error: string | null }
  | { type: 'SHOW'; notice: Notice }
  | { type: 'DISMISS' };

export interface MatrixAccountsContext {
  /** Ids in the order they were chosen. */
  selected: number[];
  /** The bind dialog's draft, then the binding asked for (the dialog shows its platform and group). */
  bind: BindRequest | null;
  /** Why the last `authUrl` call failed (a message id or the server's sentence). */
  bindError: string | null;
  /** The account being refreshed. */
  refreshing: { id: number; name: string } | null;
  notice: Notice | null;
}

/** The server's refusals of a binding that the console's catalogue words itself. */
export const KNOWN_BIND_ERRORS = [
  'matrix.authStateInvalid',
  'matrix.authDeclined',
  'matrix.accountBoundElsewhere',
  'matrix.platformNotConfigured',
] as const;
/** What an unknown refusal id shows. */
export const BIND_FAILED = 'matrix.bindFailed';

/** The bind dialog's draft when it opens: Douyin (the one platform bound by authorisation), ungrouped. */
const FRESH_BIND: BindRequest = { platform: 'douyin', groupId: null };

/** The notice of a return from the platform (null: nothing to say). */
export function returnNotice(bound: number | null, error: string | null): Notice | null {
  if (error !== null) {
    const known = (KNOWN_BIND_ERRORS as readonly string[]).includes(error);
    return { tone: 'error', text: known ? error : BIND_FAILED };
  }
  if (bound !== null) return { tone: 'success', text: 'matrix.bound' };
  return null;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export const matrixAccountsMachine = setup({
  types: {
    context: {} as MatrixAccountsContext,
    events: {} as MatrixAccountsEvent,
  },
  actors: {
    authUrl: fromPromise<AuthUrlReply, AuthUrlBody>(async () => {
      throw new Error('matrixAccounts: provide the authUrl actor');
    }),
    refresh: fromPromise<unknown, { id: number }>(async () => {
      throw new Error('matrixAccounts: provide the refresh actor');
    }),
  },
  actions: {
    /** Sends the browser to the platform's authorisation page. */
    navigate: (_, _params: { url: string }) => {
      throw new Error('matrixAccounts: provide the navigate action');
    },
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
    ask: assign({
      bind: ({ context, event }) => {
        assertEvent(event, 'BIND');
        return event.request ?? context.bind ?? FRESH_BIND;
      },
      bindError: null,
    }),
    setBind: assign({
      bind: ({ context, event }) => {
        assertEvent(event, 'SET_BIND');
        return { ...(context.bind ?? FRESH_BIND), ...event.change };
      },
    }),
    startRefresh: assign({
      refreshing: ({ event }) => {
        assertEvent(event, 'REFRESH');
        return { id: event.id, name: event.name };
      },
    }),
    show: assign({
      notice: ({ event }) => {
        assertEvent(event, 'SHOW');
        return event.notice;
      },
    }),
  },
  guards: {
    /** TOGGLE of the only selected account, or a SHOWN list that has none of the selected. */
    leavesNone: ({ context, event }) => {
      if (event.type === 'TOGGLE') {
        return context.selected.length === 1 && context.selected[0] === event.id;
      }
      if (event.type === 'SHOWN') return !context.selected.some((id) => event.ids.includes(id));
      return false;
    },
    pageHasRows: ({ event }) => event.type === 'SELECT_PAGE' && event.ids.length > 0,
    saysSomething: ({ event }) =>
      event.type === 'RETURNED' && returnNotice(event.bound, event.error) !== null,
  },
}).createMachine({
  id: 'matrixAccounts',
  context: { selected: [], bind: null, bindError: null, refreshing: null, notice: null },
  type: 'parallel',
  on: {
    RETURNED: {
      guard: 'saysSomething',
      actions: raise(({ event }) => ({
        type: 'SHOW' as const,
        notice: returnNotice(event.bound, event.error)!,
      })),
    },
  },
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
    bind: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            OPEN_BIND: {
              target: 'choosing',
              actions: assign({ bind: FRESH_BIND, bindError: null }),
            },
            BIND: { target: 'asking', actions: 'ask' },
          },
        },
        choosing: {
          tags: ['bindDialog'],
          on: {
            SET_BIND: { actions: 'setBind' },
            BIND: { target: 'asking', actions: 'ask' },
            CLOSE_BIND: 'idle',
          },
        },
        asking: {
          tags: ['bindDialog', 'binding'],
          invoke: {
            id: 'authUrl',
            src: 'authUrl',
            input: ({ context }) => ({
              platform: context.bind!.platform,
              ...(context.bind!.groupId !== null ? { group_id: context.bind!.groupId } : {}),
            }),
            onDone: {
              target: 'leaving',
              actions: { type: 'navigate', params: ({ event }) => ({ url: event.output.url }) },
            },
            onError: {
              target: 'failed',
              actions: assign({ bindError: ({ event }) => errorText(event.error) }),
            },
          },
        },
        leaving: { tags: ['bindDialog', 'binding'] },
        failed: {
          tags: ['bindDialog'],
          on: {
            SET_BIND: { actions: 'setBind' },
            BIND: { target: 'asking', actions: 'ask' },
            CLOSE_BIND: 'idle',
          },
        },
      },
    },
    refresh: {
      initial: 'idle',
      states: {
        idle: {
          on: { REFRESH: { target: 'refreshing', actions: 'startRefresh' } },
        },
        refreshing: {
          tags: ['refreshing'],
          invoke: {
            id: 'refresh',
            src: 'refresh',
            input: ({ context }) => ({ id: context.refreshing!.id }),
            onDone: {
              target: 'idle',
              actions: [
                raise(({ context }) => ({
                  type: 'SHOW' as const,
                  notice: {
                    tone: 'success' as const,
                    text: 'matrix.refreshed',
                    values: { name: context.refreshing!.name },
                  },
                })),
                assign({ refreshing: null }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                raise(({ event }) => ({
                  type: 'SHOW' as const,
                  notice: { tone: 'error' as const, text: errorText(event.error) },
                })),
                assign({ refreshing: null }),
              ],
            },
          },
        },
      },
    },
    notice: {
      initial: 'none',
      states: {
        none: { on: { SHOW: { target: 'shown', actions: 'show' } } },
        shown: {
          tags: ['notice'],
          on: {
            SHOW: { actions: 'show' },
            DISMISS: { target: 'none', actions: assign({ notice: null }) },
          },
        },
      },
    },
  },
});

export type MatrixAccountsSnapshot = SnapshotFrom<typeof matrixAccountsMachine>;
