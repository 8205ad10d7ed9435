import { assertEvent, assign, fromPromise, raise, setup, type SnapshotFrom } from 'xstate';

/**
 * What a person does on the release plans page (/matrix-distribution/release-plan, docs/domain.md
 * §20) besides the lists (the generic list machine) and the create form (plan-form.ts). Four
 * regions:
 * - `plan`: idle | confirming (CANCEL_PLAN asks first; KEEP goes back, CONFIRM goes on) | acting
 *   (the `planAction` call: pause, resume or cancel one plan; one at a time). Its outcome is a
 *   notice.
 * - `detail`: closed | open (OPEN_DETAIL: one plan's posts; CLOSE_DETAIL).
 * - `post`: idle | acting (the `postAction` call: publish a waiting post now, retry a failed one;
 *   one at a time). Its outcome is a notice.
 * - `notice`: none | shown: the page's one notice (the console's text, or the server's refusal);
 *   DISMISS hides it.
 * `planAction` and `postAction` are placeholders (`.provide()`).
 */
export type PlanAction = 'pause' | 'resume' | 'cancel';
export type PostAction = 'publishNow' | 'retry';

export interface PlanRef {
  id: number;
  name: string;
}

/** The plan whose posts are shown (their times in its time zone). */
export interface PlanDetailRef extends PlanRef {
  timezone: string;
}

export interface PlanNotice {
  tone: 'success' | 'error';
  /** A message id or the server's sentence. */
  text: string;
  values?: Record<string, string | number>;
}

export type MatrixPlansEvent =
  | { type: 'PAUSE'; plan: PlanRef }
  | { type: 'RESUME'; plan: PlanRef }
  | { type: 'CANCEL_PLAN'; plan: PlanRef }
  | { type: 'CONFIRM' }
  | { type: 'KEEP' }
  | { type: 'OPEN_DETAIL'; plan: PlanDetailRef }
  | { type: 'CLOSE_DETAIL' }
  | { type: 'PUBLISH_NOW'; id: number }
  | { type: 'RETRY'; id: number }
  | { type: 'SHOW'; notice: PlanNotice }
  | { type: 'DISMISS' };

export interface MatrixPlansContext {
  /** The plan being paused, resumed or cancelled (or whose cancel is being confirmed). */
  acting: { action: PlanAction; plan: PlanRef } | null;
  /** The plan whose posts are shown. */
  detail: PlanDetailRef | null;
  /** The post being published now or retried. */
  post: { action: PostAction; id: number } | null;
  notice: PlanNotice | null;
  /** Plan and post actions finished (done or refused): a change means "reload". */
  settled: number;
}

/** The notice of each action done. */
export const DONE_TEXT: Record<PlanAction | PostAction, string> = {
  pause: 'matrixPlans.paused',
  resume: 'matrixPlans.resumed',
  cancel: 'matrixPlans.cancelled',
  publishNow: 'matrixPlans.publishQueued',
  retry: 'matrixPlans.retryQueued',
};

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export const matrixPlansMachine = setup({
  types: {
    context: {} as MatrixPlansContext,
    events: {} as MatrixPlansEvent,
  },
  actors: {
    planAction: fromPromise<unknown, { action: PlanAction; id: number }>(async () => {
      throw new Error('matrixPlans: provide the planAction actor');
    }),
    postAction: fromPromise<unknown, { action: PostAction; id: number }>(async () => {
      throw new Error('matrixPlans: provide the postAction actor');
    }),
  },
  actions: {
    startPlan: assign({
      acting: ({ event }) => {
        if (event.type === 'PAUSE') return { action: 'pause' as const, plan: event.plan };
        if (event.type === 'RESUME') return { action: 'resume' as const, plan: event.plan };
        assertEvent(event, 'CANCEL_PLAN');
        return { action: 'cancel' as const, plan: event.plan };
      },
    }),
    startPost: assign({
      post: ({ event }) => {
        if (event.type === 'PUBLISH_NOW') return { action: 'publishNow' as const, id: event.id };
        assertEvent(event, 'RETRY');
        return { action: 'retry' as const, id: event.id };
      },
    }),
    count: assign({ settled: ({ context }) => context.settled + 1 }),
    show: assign({
      notice: ({ event }) => {
        assertEvent(event, 'SHOW');
        return event.notice;
      },
    }),
  },
}).createMachine({
  id: 'matrixPlans',
  context: { acting: null, detail: null, post: null, notice: null, settled: 0 },
  type: 'parallel',
  states: {
    plan: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            PAUSE: { target: 'acting', actions: 'startPlan' },
            RESUME: { target: 'acting', actions: 'startPlan' },
            CANCEL_PLAN: { target: 'confirming', actions: 'startPlan' },
          },
        },
        confirming: {
          tags: ['confirmingCancel'],
          on: {
            CONFIRM: 'acting',
            KEEP: { target: 'idle', actions: assign({ acting: null }) },
          },
        },
        acting: {
          tags: ['planActing'],
          invoke: {
            id: 'planAction',
            src: 'planAction',
            input: ({ context }) => ({
              action: context.acting!.action,
              id: context.acting!.plan.id,
            }),
            onDone: {
              target: 'idle',
              actions: [
                raise(({ context }) => ({
                  type: 'SHOW' as const,
                  notice: {
                    tone: 'success' as const,
                    text: DONE_TEXT[context.acting!.action],
                    values: { name: context.acting!.plan.name },
                  },
                })),
                assign({ acting: null }),
                'count',
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                raise(({ event }) => ({
                  type: 'SHOW' as const,
                  notice: { tone: 'error' as const, text: errorText(event.error) },
                })),
                assign({ acting: null }),
                'count',
              ],
            },
          },
        },
      },
    },
    detail: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            OPEN_DETAIL: {
              target: 'open',
              actions: assign({ detail: ({ event }) => event.plan }),
            },
          },
        },
        open: {
          tags: ['detail'],
          on: { CLOSE_DETAIL: { target: 'closed', actions: assign({ detail: null }) } },
        },
      },
    },
    post: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            PUBLISH_NOW: { target: 'acting', actions: 'startPost' },
            RETRY: { target: 'acting', actions: 'startPost' },
          },
        },
        acting: {
          tags: ['postActing'],
          invoke: {
            id: 'postAction',
            src: 'postAction',
            input: ({ context }) => ({ action: context.post!.action, id: context.post!.id }),
            onDone: {
              target: 'idle',
              actions: [
                raise(({ context }) => ({
                  type: 'SHOW' as const,
                  notice: { tone: 'success' as const, text: DONE_TEXT[context.post!.action] },
                })),
                assign({ post: null }),
                'count',
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                raise(({ event }) => ({
                  type: 'SHOW' as const,
                  notice: { tone: 'error' as const, text: errorText(event.error) },
                })),
                assign({ post: null }),
                'count',
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

export type MatrixPlansSnapshot = SnapshotFrom<typeof matrixPlansMachine>;
