import { assign, fromPromise, raise, setup, type SnapshotFrom } from 'xstate';
import type { ImitateTitleBody, ImitateTitleReply } from '../api/contract/ai-text';
import type {
  CreationMediaType,
  PlanBody,
  PlanMediaType,
  PlanPreview,
} from '../api/contract/matrix-plans';

/**
 * The release plan's form (the drawer of /matrix-distribution/release-plan, docs/domain.md §20),
 * for a new plan or an edit. Closed until:
 * - OPEN: a fresh draft; OPEN {planId, draft}: an edit of a plan not started yet, its draft filled
 *   in and previewed at once (Save sends the edit: `save` gets the plan's id);
 * - OPEN_WITH_MEDIA {refs} (a "publish" link of finished outputs or digital-human videos):
 *   resolving (the `resolveMedia` call names them) → open with a fresh draft holding those the
 *   plan may use; a ref that is not (any more) is said (`error`); a refused call is said too.
 * Then three regions:
 * - `form`: editing → PREVIEW (a draft the contract's rules accept) → previewing (the `preview`
 *   call) → previewed (the schedule shown) → SAVE → saving (the `save` call) → closed, counted in
 *   `completed` (the area reloads the list). A PREVIEW the rules refuse stays in editing with the
 *   messages (every edit checks again from then on); a refused call goes back with the server's
 *   sentence (`error`). An EDIT of a previewed draft drops the preview: Save needs a preview of
 *   the draft as it is. CLOSE (Cancel, Escape) from editing or previewed. Opened for an edit
 *   whose draft the rules accept, it starts previewing.
 * - `ai`: the AI titles beside the titles: GENERATE {title, count} → generating (the `imitate`
 *   call; a request the rules refuse fails at once with the message) → shown (the suggestions,
 *   `demonstration` when the embedded generator made them) | failed; CHOOSE ticks or unticks one;
 *   ADD puts the ticked ones after the draft's titles (as an EDIT: the form region drops a
 *   preview) and closes the suggestions; DISMISS closes them.
 * - `creations`: closed | open: the finished creations dialog (OPEN_CREATIONS, CLOSE_CREATIONS;
 *   what it ticks is an EDIT of the draft's media).
 * The rules (a fresh draft, the contract's checks) are given by the area; `preview`, `save`,
 * `imitate` and `resolveMedia` are placeholder actors (`.provide()`).
 */

/** A video the plan publishes, as the form shows it. */
export interface PlanMediaPick {
  type: PlanMediaType;
  id: number;
  name: string;
}

export interface PlanDraft {
  name: string;
  /** The chosen accounts, in the order they were ticked. */
  accountIds: number[];
  media: PlanMediaPick[];
  titles: string[];
  topics: string[];
  /** A region code, or '' for none. */
  location: string;
  startDate: string;
  endDate: string;
  slots: string[];
  /** As typed (the rules read it). */
  dailyMax: string;
  timezone: string;
}

/** A video a "publish" link names (its name is asked for). */
export interface PlanMediaRef {
  type: CreationMediaType;
  id: number;
}

export interface CheckedPlan {
  /** The body the calls take; null when a rule refuses the draft. */
  body: PlanBody | null;
  /** Field (`name`, `titles`, `slots`, …) → message id: the first message of each field. */
  errors: Record<string, string>;
}

export interface PlanFormRules {
  fresh: () => PlanDraft;
  check: (draft: PlanDraft) => CheckedPlan;
  /** The message id that refuses an AI titles request, or null. */
  checkImitate: (body: ImitateTitleBody) => string | null;
  /** The most titles a plan takes. */
  maxTitles: number;
}

export type PlanFormEvent =
  | { type: 'OPEN'; planId?: number; draft?: PlanDraft }
  | { type: 'OPEN_WITH_MEDIA'; refs: readonly PlanMediaRef[] }
  | { type: 'CLOSE' }
  | { type: 'EDIT'; patch: Partial<PlanDraft> }
  | { type: 'PREVIEW' }
  | { type: 'SAVE' }
  | { type: 'GENERATE'; request: ImitateTitleBody }
  | { type: 'CHOOSE'; title: string }
  | { type: 'ADD' }
  | { type: 'DISMISS' }
  | { type: 'OPEN_CREATIONS' }
  | { type: 'CLOSE_CREATIONS' };

export interface PlanFormContext {
  /** The plan being edited; null for a new plan. */
  planId: number | null;
  /** The videos a "publish" link named, while their names are asked for. */
  refs: readonly PlanMediaRef[];
  draft: PlanDraft;
  errors: Record<string, string>;
  /** A PREVIEW was refused by the rules: every edit checks again. */
  checked: boolean;
  preview: PlanPreview | null;
  /** The server's refusal of a preview or a save (a sentence or a message id). */
  error: string | null;
  /** The AI titles request under way or last made. */
  request: ImitateTitleBody | null;
  suggestions: ImitateTitleReply | null;
  /** The suggestions ticked to add, in the order ticked. */
  chosen: string[];
  aiError: string | null;
  result: { id: number; posts: number; edited: boolean } | null;
  /** Plans saved: a change means "a plan was added or edited". */
  completed: number;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export function createPlanFormMachine(rules: PlanFormRules) {
  const fresh = () => ({
    planId: null,
    refs: [],
    draft: rules.fresh(),
    errors: {},
    checked: false,
    preview: null,
    error: null,
    request: null,
    suggestions: null,
    chosen: [],
    aiError: null,
  });
  return setup({
    types: {
      context: {} as PlanFormContext,
      events: {} as PlanFormEvent,
    },
    actors: {
      preview: fromPromise<PlanPreview, { body: PlanBody }>(async () => {
        throw new Error('planForm: provide the preview actor');
      }),
      save: fromPromise<{ id: number; posts: number }, { body: PlanBody; planId: number | null }>(
        async () => {
          throw new Error('planForm: provide the save actor');
        },
      ),
      resolveMedia: fromPromise<PlanMediaPick[], { refs: readonly PlanMediaRef[] }>(async () => {
        throw new Error('planForm: provide the resolveMedia actor');
      }),
      imitate: fromPromise<ImitateTitleReply, ImitateTitleBody>(async () => {
        throw new Error('planForm: provide the imitate actor');
      }),
    },
    guards: {
      valid: ({ context }) => rules.check(context.draft).body !== null,
      editingValid: ({ context }) =>
        context.planId !== null && rules.check(context.draft).body !== null,
      someChosen: ({ context }) => context.chosen.length > 0,
      imitable: ({ event }) =>
        event.type === 'GENERATE' && rules.checkImitate(event.request) === null,
    },
    actions: {
      edit: assign(({ context, event }) => {
        if (event.type !== 'EDIT') return {};
        const draft = { ...context.draft, ...event.patch };
        return {
          draft,
          preview: null,
          ...(context.checked ? { errors: rules.check(draft).errors } : {}),
        };
      }),
      refuse: assign(({ context }) => ({
        checked: true,
        errors: rules.check(context.draft).errors,
      })),
      ask: assign(({ event }) =>
        event.type === 'GENERATE'
          ? { request: event.request, suggestions: null, chosen: [], aiError: null }
          : {},
      ),
      refuseAsk: assign(({ event }) =>
        event.type === 'GENERATE'
          ? {
              request: event.request,
              suggestions: null,
              chosen: [],
              aiError: rules.checkImitate(event.request),
            }
          : {},
      ),
    },
  }).createMachine({
    id: 'planForm',
    context: { ...fresh(), result: null, completed: 0 },
    initial: 'closed',
    states: {
      closed: {
        on: {
          OPEN: {
            target: 'open',
            actions: assign(({ event }) => ({
              ...fresh(),
              planId: event.planId ?? null,
              draft: event.draft ?? rules.fresh(),
            })),
          },
          OPEN_WITH_MEDIA: {
            target: 'resolving',
            actions: assign(({ event }) => ({ ...fresh(), refs: event.refs })),
          },
        },
      },
      resolving: {
        tags: ['resolving'],
        invoke: {
          id: 'resolveMedia',
          src: 'resolveMedia',
          input: ({ context }) => ({ refs: context.refs }),
          onDone: {
            target: 'open',
            actions: assign(({ context, event }) => ({
              draft: { ...context.draft, media: event.output },
              // Some were not (any more) finished videos of the caller's: said above the form.
              error: event.output.length < context.refs.length ? 'matrixPlans.mediaMissing' : null,
              refs: [],
            })),
          },
          onError: {
            target: 'open',
            actions: assign({ error: ({ event }) => errorText(event.error), refs: [] }),
          },
        },
        on: { CLOSE: 'closed' },
      },
      open: {
        type: 'parallel',
        states: {
          form: {
            initial: 'starting',
            states: {
              // An edit opens with its preview asked for at once.
              starting: {
                always: [{ guard: 'editingValid', target: 'previewing' }, { target: 'editing' }],
              },
              editing: {
                on: {
                  EDIT: { actions: 'edit' },
                  PREVIEW: [
                    { guard: 'valid', target: 'previewing', actions: assign({ error: null }) },
                    { actions: 'refuse' },
                  ],
                  CLOSE: '#planForm.closed',
                },
              },
              previewing: {
                tags: ['busy', 'previewing'],
                invoke: {
                  id: 'preview',
                  src: 'preview',
                  input: ({ context }) => ({ body: rules.check(context.draft).body! }),
                  onDone: {
                    target: 'previewed',
                    actions: assign({ preview: ({ event }) => event.output }),
                  },
                  onError: {
                    target: 'editing',
                    actions: assign({ error: ({ event }) => errorText(event.error) }),
                  },
                },
              },
              previewed: {
                tags: ['previewed'],
                on: {
                  EDIT: { target: 'editing', actions: 'edit' },
                  PREVIEW: { target: 'previewing', actions: assign({ error: null }) },
                  SAVE: { target: 'saving', actions: assign({ error: null }) },
                  CLOSE: '#planForm.closed',
                },
              },
              saving: {
                tags: ['busy', 'previewed', 'saving'],
                invoke: {
                  id: 'save',
                  src: 'save',
                  input: ({ context }) => ({
                    body: rules.check(context.draft).body!,
                    planId: context.planId,
                  }),
                  onDone: {
                    target: '#planForm.closed',
                    actions: assign(({ context, event }) => ({
                      result: { ...event.output, edited: context.planId !== null },
                      completed: context.completed + 1,
                    })),
                  },
                  onError: {
                    target: 'previewed',
                    actions: assign({ error: ({ event }) => errorText(event.error) }),
                  },
                },
              },
            },
          },
          ai: {
            initial: 'idle',
            on: {
              GENERATE: [
                // Again while one runs: that call is dropped (its invoke stops).
                { guard: 'imitable', target: '.generating', reenter: true, actions: 'ask' },
                { target: '.failed', reenter: true, actions: 'refuseAsk' },
              ],
            },
            states: {
              idle: {},
              generating: {
                tags: ['generating'],
                invoke: {
                  id: 'imitate',
                  src: 'imitate',
                  input: ({ context }) => context.request!,
                  onDone: {
                    target: 'shown',
                    actions: assign({ suggestions: ({ event }) => event.output }),
                  },
                  onError: {
                    target: 'failed',
                    actions: assign({ aiError: ({ event }) => errorText(event.error) }),
                  },
                },
              },
              shown: {
                tags: ['suggestions'],
                on: {
                  CHOOSE: {
                    actions: assign({
                      chosen: ({ context, event }) =>
                        context.chosen.includes(event.title)
                          ? context.chosen.filter((t) => t !== event.title)
                          : [...context.chosen, event.title],
                    }),
                  },
                  ADD: {
                    guard: 'someChosen',
                    target: 'idle',
                    actions: [
                      raise(({ context }) => {
                        const have = context.draft.titles;
                        const added = context.chosen.filter((t) => !have.includes(t));
                        return {
                          type: 'EDIT' as const,
                          patch: { titles: [...have, ...added].slice(0, rules.maxTitles) },
                        };
                      }),
                      assign({ suggestions: null, chosen: [] }),
                    ],
                  },
                  DISMISS: { target: 'idle', actions: assign({ suggestions: null, chosen: [] }) },
                },
              },
              failed: {
                tags: ['aiFailed'],
                on: { DISMISS: { target: 'idle', actions: assign({ aiError: null }) } },
              },
            },
          },
          creations: {
            initial: 'closed',
            states: {
              closed: { on: { OPEN_CREATIONS: 'open' } },
              open: { tags: ['creations'], on: { CLOSE_CREATIONS: 'closed' } },
            },
          },
        },
      },
    },
  });
}

export type PlanFormMachine = ReturnType<typeof createPlanFormMachine>;
export type PlanFormSnapshot = SnapshotFrom<PlanFormMachine>;
