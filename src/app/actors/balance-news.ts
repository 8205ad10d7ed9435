/**
 * News that paid work moved the balances (docs/domain.md §9): a video task, a digital-human video or
 * a clone submitted, retried or resubmitted (its price frozen), cancelled (refunded), or seen
 * reaching a final state (settled, what was not used refunded). The areas that run the work tell
 * it (`moved`); the areas that show balances — the dashboard's work bench, the property page's
 * (money area) — reload on it: events between areas, never a view effect. An area of its own that
 * imports neither side, so the dashboard and the property page do not pull the task pages' code
 * into their chunks, nor those theirs.
 */
import type { Subscription } from 'xstate';
import { defineArea } from './areas';

export interface BalanceNews {
  /** Paid work moved (or may have moved) the signed-in user's balances. */
  moved(): void;
  /** Calls `listener` after each move, until unsubscribed. */
  onMoved(listener: () => void): Subscription;
  stop(): void;
}

function createBalanceNews(): BalanceNews {
  const listeners = new Set<() => void>();
  return {
    moved: () => [...listeners].forEach((listener) => listener()),
    onMoved(listener) {
      listeners.add(listener);
      return { unsubscribe: () => void listeners.delete(listener) };
    },
    stop: () => listeners.clear(),
  };
}

/**
 * Calls `then` each time a watch sees an item it knew as active (queued, running, training…)
 * in a final state: its price settled, or refunded. Items first seen finished are not news.
 */
export function whenFinished<S, T extends { id: number }>(
  watch: { getSnapshot(): S; subscribe(observer: (snapshot: S) => void): Subscription },
  items: (snapshot: S) => Iterable<T>,
  isActive: (item: T) => boolean,
  then: () => void,
): Subscription {
  const active = new Set<number>();
  const finishedNow = (snapshot: S) => {
    let finished = false;
    for (const item of items(snapshot)) {
      if (isActive(item)) active.add(item.id);
      else if (active.delete(item.id)) finished = true;
    }
    return finished;
  };
  finishedNow(watch.getSnapshot());
  return watch.subscribe((snapshot) => {
    if (finishedNow(snapshot)) then();
  });
}

export const balanceNewsArea = defineArea<null, BalanceNews>({
  key: 'balanceNews',
  live: () => null,
  create: () => createBalanceNews(),
});
