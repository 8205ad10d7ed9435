import type { toaster as Store } from './toaster-store';

/**
 * Notices (toasts). The toast store and the toaster that shows it load with the first notice, not
 * with the first page: a visitor who is never told anything downloads neither. Calls made before
 * they have loaded wait, in order, and run once they have.
 */
export type NoticeType = 'error' | 'success' | 'info' | 'loading' | 'warning';

let store: Promise<typeof Store> | null = null;
let raised = false;
const raisedListeners = new Set<() => void>();
let sequence = 0;

function withStore(run: (toaster: typeof Store) => void): void {
  store ??= import('./toaster-store').then((m) => m.toaster);
  void store.then(run);
}

/**
 * Loads and mounts the toaster before any notice: a signed-in console raises notices at start-up
 * (the server menu's loading notice), which should not wait for the toaster to load.
 */
export function prepareNotices(): void {
  withStore(() => {});
  wantToaster();
}

function wantToaster(): void {
  if (raised) return;
  raised = true;
  raisedListeners.forEach((listener) => listener());
}

/** Shows a notice; returns its id so a loading notice can be replaced by its outcome. */
export function notify(type: NoticeType, text: string, durationMs = 3000, id?: string): string {
  const key = id ?? `notice-${(sequence += 1)}`;
  withStore((toaster) =>
    toaster.create({
      id: key,
      type,
      title: text,
      duration: type === 'loading' ? undefined : durationMs,
    }),
  );
  wantToaster();
  return key;
}

/**
 * Takes a notice away (nothing when it is not shown). `remove`, not `dismiss`: zag's `dismiss` only
 * tells a mounted toaster, so a notice dismissed before the toaster mounted would show after.
 */
export function dismissNotice(id: string): void {
  if (store) withStore((toaster) => toaster.remove(id));
}

/** Removes every notice at once (tests). */
export function removeAllNotices(): void {
  if (store) withStore((toaster) => toaster.remove());
}

/** Whether the toaster is wanted yet (a notice raised, or prepared): it mounts then (providers.tsx). */
export const noticesRaised = {
  get: (): boolean => raised,
  subscribe(listener: () => void) {
    raisedListeners.add(listener);
    return () => {
      raisedListeners.delete(listener);
    };
  },
};
