import { createBrowserInspector } from '@statelyai/inspect';
import type { AnyEventObject, MachineContext } from 'xstate';
import { maskForInspector } from './mask-for-inspector';

/**
 * Development only: `npm run dev`, then `?inspect` in the URL (README). main.tsx imports this
 * module dynamically behind `import.meta.env.DEV`, so production builds never contain it
 * (tests/e2e/bundle.spec.ts checks). Opens Stately's inspector in a new window and returns the
 * observer the app-level actors are created with; credentials are masked in what it sends.
 */
export function startInspector() {
  const inspector = createBrowserInspector({
    sanitizeContext: (context: MachineContext) => maskForInspector(context),
    sanitizeEvent: (event: AnyEventObject) => maskForInspector(event),
  });
  return inspector.inspect;
}
