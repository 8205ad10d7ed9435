/**
 * The old-style test model of the money-call machine (src/machines/money-call.ts), still used by
 * the card generate dialog's tests: what a person sees in each state, the events, the
 * serialisation, and the idempotency rules written out again as the oracle: a confirmed draft
 * gets a fresh key, a retry sends the key of the failed call, editing is offered only when
 * nothing can have moved. The transfer and exchange dialogs are tested through the property page
 * instead (money-paths.tsx).
 */
import { expect } from 'vitest';
import type { MoneyCallEvent, MoneyCallSnapshot } from '../../src/machines/money-call';
import { replyError } from './fixtures';

export type DialogState = 'closed' | 'editing' | 'confirming' | 'submitting' | 'failed' | 'done';

export interface DialogSees {
  /** The dialog is open. */
  open: boolean;
  /** Which step it shows. */
  step?: 'form' | 'confirm' | 'result' | 'error';
  /** The confirm button shows progress (busy) and nothing else can be pressed but waiting. */
  busy?: boolean;
  /** Buttons offered at this step (beyond the close button). */
  buttons?: ('cancel' | 'review' | 'back' | 'confirm' | 'retry' | 'again' | 'close')[];
}

export const DIALOG_STATES: Record<
  DialogState,
  { tags: string[]; sees: (uncertain: boolean) => DialogSees }
> = {
  closed: { tags: [], sees: () => ({ open: false }) },
  editing: {
    tags: ['open'],
    sees: () => ({ open: true, step: 'form', buttons: ['cancel', 'review'] }),
  },
  confirming: {
    tags: ['open'],
    sees: () => ({ open: true, step: 'confirm', buttons: ['back', 'confirm'] }),
  },
  submitting: {
    tags: ['open', 'submitting'],
    sees: () => ({ open: true, step: 'confirm', busy: true, buttons: ['back', 'confirm'] }),
  },
  failed: {
    tags: ['open'],
    sees: (uncertain) => ({
      open: true,
      step: 'error',
      buttons: uncertain ? ['close', 'retry'] : ['close', 'back'],
    }),
  },
  done: {
    tags: ['open'],
    sees: () => ({ open: true, step: 'result', buttons: ['again', 'close'] }),
  },
};

export const REFUSED = 'Insufficient balance';
export const refusal = () => replyError(REFUSED);
/** No reply at all: the server may or may not have applied the call. */
export const lostReply = () => replyError('http.networkError', 'transport');

/** A counter-based key maker, so that the test can tell the keys apart. */
export function keyMaker() {
  let n = 0;
  return () => `key-${(n += 1)}-0000`;
}

type ModelEvent<D> = MoneyCallEvent<D> | { type: string; output?: unknown; error?: unknown };

/** The events of the dialog, each offered only where it is handled. */
export function eventsWith<D, R>(drafts: readonly D[], result: R) {
  return (snapshot: MoneyCallSnapshot<D, R>): MoneyCallEvent<D>[] => {
    const events: ModelEvent<D>[] = [
      { type: 'OPEN' },
      ...drafts.map((draft): ModelEvent<D> => ({ type: 'REVIEW', draft })),
      { type: 'BACK' },
      { type: 'SUBMIT' },
      { type: 'RETRY' },
      { type: 'AGAIN' },
      { type: 'CLOSE' },
    ];
    if (snapshot.matches('submitting')) {
      events.push(
        { type: 'xstate.done.actor.submit', output: result },
        { type: 'xstate.error.actor.submit', error: refusal() },
        { type: 'xstate.error.actor.submit', error: lostReply() },
      );
    }
    return (events as MoneyCallEvent<D>[]).filter(
      (event) => event.type.startsWith('xstate.') || snapshot.can(event),
    );
  };
}

export function describeEvent(event: { type: string; error?: unknown; draft?: unknown }): string {
  if (event.type === 'xstate.error.actor.submit') {
    return (event.error as { kind: string }).kind === 'reply'
      ? 'submit refused'
      : 'submit: no reply';
  }
  if (event.type === 'xstate.done.actor.submit') return 'submit done';
  return event.type;
}

/** State + the flags that change behaviour + which draft + the event that led in. */
export function serializeWith<D, R>(drafts: readonly D[]) {
  return (snapshot: MoneyCallSnapshot<D, R>, event?: { type: string }): string => {
    const c = snapshot.context;
    return JSON.stringify({
      state: snapshot.value,
      uncertain: c.uncertain,
      draft: c.draft === null ? null : drafts.indexOf(c.draft as D),
      attempted: c.attempts > 0,
      via: event?.type ?? 'init',
    });
  };
}

// ---------------------------------------------------------------------------------------------
// The oracle of one step

/** The keys the fake server was sent, in order. */
export interface Sent {
  keys: string[];
}

/**
 * Checks one step of a dialog path: tags, the key rules, the call under way and its input, and
 * what the state keeps. `started` is the fake calls' record of started submissions.
 */
export function checkDialogStep<D, R>(
  snapshot: MoneyCallSnapshot<D, R>,
  event: { type: string } | null,
  previous: MoneyCallSnapshot<D, R> | null,
  started: { id: string; input: unknown }[],
  sent: Sent,
  waiting: string[],
) {
  const state = snapshot.value as DialogState;
  const row = DIALOG_STATES[state];
  expect(row, `no row for ${state}`).toBeDefined();
  expect(['open', 'submitting'].filter((tag) => snapshot.hasTag(tag))).toEqual(row.tags);
  const c = snapshot.context;
  expect(waiting).toEqual(state === 'submitting' ? ['submit'] : []);

  if (state === 'editing') expect(c.key).toBeNull();
  if (state === 'editing' && event?.type === 'OPEN') {
    expect([c.draft, c.result, c.error, c.attempts]).toEqual([null, null, null, 0]);
  }
  if (state === 'confirming' && event?.type === 'REVIEW') {
    // A confirmed draft is a new submission: a key never sent before.
    expect(c.key).not.toBeNull();
    expect(sent.keys).not.toContain(c.key);
    expect(c.key).not.toBe(previous?.context.key);
  }
  if (state === 'submitting') {
    const call = started.at(-1)!;
    expect(call.input).toEqual({ draft: c.draft, key: c.key });
    const key = c.key as string;
    if (event?.type === 'RETRY') {
      // The same submission again: the key of the call that failed.
      expect(key).toBe(sent.keys.at(-1));
      expect(c.draft).toBe(previous?.context.draft);
    } else {
      expect(sent.keys).not.toContain(key);
    }
    sent.keys.push(key);
    expect(c.attempts).toBe((previous?.context.attempts ?? 0) + 1);
  }
  if (state === 'failed') {
    expect(c.error).toBe(c.uncertain ? 'http.networkError' : REFUSED);
    expect(c.key).toBe(sent.keys.at(-1));
    // Editing after a lost reply could send a second, different submission: not offered.
    expect(snapshot.can({ type: 'BACK' })).toBe(!c.uncertain);
    // Sending again only when the outcome is unknown: a refusal would be refused again.
    expect(snapshot.can({ type: 'RETRY' })).toBe(c.uncertain);
  }
  if (state === 'done') {
    expect(c.result).not.toBeNull();
    expect(c.uncertain).toBe(false);
  }
  // While a call is under way the dialog cannot be closed.
  expect(snapshot.can({ type: 'CLOSE' })).toBe(state !== 'submitting' && state !== 'closed');
}
