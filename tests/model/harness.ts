/**
 * Executes a path from `getShortestPaths` on a real actor. Invoked actors are fakes whose promises
 * stay pending until the step that names their `xstate.done.actor.<id>` / `xstate.error.actor.<id>`
 * settles them; `xstate.after.<ms>.<state>` steps advance fake timers. After every step the actor
 * must be in the state the model says, and the caller's `check` asserts what that state promises.
 */
import { vi, expect } from 'vitest';
import { fromPromise, type AnyActorRef, type EventObject, type Snapshot } from 'xstate';
import type { StatePath } from 'xstate/graph';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  input: unknown;
}

/** Fake invoked actors keyed by invoke id (`self.id`), pending until a step settles them. */
export function fakeCalls() {
  const pending = new Map<string, Pending>();
  const started: { id: string; input: unknown }[] = [];
  return {
    pending,
    started,
    /** A promise actor for a placeholder: records its input and waits for the path. */
    logic<TOutput, TInput = unknown>() {
      return fromPromise<TOutput, TInput>(
        ({ input, self, signal }) =>
          new Promise<TOutput>((resolve, reject) => {
            pending.set(self.id, {
              resolve: resolve as (value: unknown) => void,
              reject,
              input,
            });
            started.push({ id: self.id, input });
            signal.addEventListener('abort', () => pending.delete(self.id));
          }),
      );
    },
    /**
     * A fake endpoint for an area module (src/app/actors): records its first argument under `id`
     * and waits for the test to settle it; the request's signal drops it when aborted.
     */
    endpoint<F extends (...args: never[]) => Promise<unknown>>(id: string): F {
      const call = (input?: unknown, options?: { signal?: AbortSignal }) =>
        new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject, input });
          started.push({ id, input });
          options?.signal?.addEventListener('abort', () => pending.delete(id));
        });
      return call as unknown as F;
    },
    /** Ids of the calls still waiting for an answer, sorted. */
    waiting(): string[] {
      return [...pending.keys()].sort();
    },
    settle(id: string, outcome: 'done' | 'error', value: unknown) {
      const call = pending.get(id);
      if (!call) throw new Error(`no pending call '${id}' (waiting: ${[...pending.keys()]})`);
      pending.delete(id);
      if (outcome === 'done') call.resolve(value);
      else call.reject(value);
    },
  };
}

export type FakeCalls = ReturnType<typeof fakeCalls>;

async function settleInto(
  actor: AnyActorRef,
  serialize: (snapshot: never, event: never) => string,
  event: unknown,
  expected: string,
): Promise<void> {
  const now = () => serialize(actor.getSnapshot() as never, event as never);
  for (let i = 0; i < 20 && now() !== expected; i++) await Promise.resolve();
  expect(now()).toBe(expected);
}

export interface PathRun<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject> {
  path: StatePath<TSnapshot, TEvent>;
  actor: AnyActorRef;
  calls: FakeCalls;
  /** The same function given to getShortestPaths (it may look at the event that led there). */
  serialize: (snapshot: TSnapshot, event: TEvent | undefined) => string;
  /** Runs after the initial state and after every step, with the event that led there. */
  check: (
    snapshot: TSnapshot,
    event: TEvent | null,
    previous: TSnapshot | null,
  ) => void | Promise<void>;
}

/** Needs `vi.useFakeTimers()` when the path contains `xstate.after` steps. */
export async function runPath<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject>(
  run: PathRun<TSnapshot, TEvent>,
): Promise<void> {
  const { path, actor, calls, serialize, check } = run;
  const ser = serialize as (snapshot: never, event: never) => string;
  // steps[0] is xstate.init: the actor starts there by itself.
  actor.start();
  await settleInto(actor, ser, undefined, serialize(path.steps[0].state, undefined));
  await check(actor.getSnapshot() as TSnapshot, null, null);

  for (const step of path.steps.slice(1)) {
    const previous = actor.getSnapshot() as TSnapshot;
    const { event } = step;
    const [, kind, rest] =
      /^xstate\.(done\.actor|error\.actor|after)\.(.+)$/.exec(event.type) ?? [];
    if (kind === 'done.actor') calls.settle(rest, 'done', (event as { output?: unknown }).output);
    else if (kind === 'error.actor')
      calls.settle(rest, 'error', (event as { error?: unknown }).error);
    else if (kind === 'after') {
      const delay = Number(rest.split('.')[0]);
      await vi.advanceTimersByTimeAsync(delay - 1);
      // Not a moment early.
      expect(actor.getSnapshot().value).toEqual((previous as { value?: unknown }).value);
      await vi.advanceTimersByTimeAsync(1);
    } else actor.send(event);
    await settleInto(actor, ser, event, serialize(step.state, event));
    await check(actor.getSnapshot() as TSnapshot, event, previous);
  }
}

/** A readable name for a path: the events after init (`label` may name them more precisely). */
export function describePath<TEvent extends EventObject>(
  path: StatePath<Snapshot<unknown>, TEvent>,
  label: (event: TEvent) => string = (event) => event.type.replace(/^xstate\./, ''),
): string {
  const events = path.steps.slice(1).map((s) => label(s.event));
  return events.length ? events.join(' → ') : '(initial state)';
}
