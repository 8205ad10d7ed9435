import type { InspectionEvent, Observer } from 'xstate';

type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

let inspect: Inspect | undefined;

/** Development only (main.tsx, `?inspect`): set before the app-level actors are created. */
export function setInspector(observer: Inspect): void {
  inspect = observer;
}

/**
 * Spread into the options of every app-level actor (`createActor(m, { ...inspection(), … })`) so
 * the XState inspector sees it when one is open; nothing otherwise.
 */
export function inspection(): { inspect?: Inspect } {
  return inspect ? { inspect } : {};
}
