import { useSyncExternalStore } from 'react';

/**
 * "The first page has been painted": work that can wait (the branding fetch, the
 * session dialogs) starts then, off the path to the first page. The router's root element (or
 * its error element) marks its first commit; the frame after it paints it. A late fallback
 * starts the waiting work anyway should no page ever commit.
 */
const FALLBACK_MS = 3000;

let painted = false;
const listeners = new Set<() => void>();
let resolvePainted: () => void = () => {};

export const firstPagePainted = new Promise<void>((resolve) => {
  resolvePainted = resolve;
});

function markPainted(): void {
  if (painted) return;
  painted = true;
  resolvePainted();
  listeners.forEach((listener) => listener());
}

/** Called from an effect of the first page: the next frame paints it, then waiting work starts. */
export function markFirstPageCommitted(): void {
  if (painted) return;
  requestAnimationFrame(() => setTimeout(markPainted, 0));
}

if (typeof window !== 'undefined') setTimeout(markPainted, FALLBACK_MS);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const isPainted = () => painted;

/** True once the first page has been painted. */
export function useFirstPagePainted(): boolean {
  return useSyncExternalStore(subscribe, isPainted, isPainted);
}
