import { useSelector } from '@xstate/react';
import type { SubmitActor } from '../actors/account';

/** A form's app-level submission actor, as the view reads and drives it. */
export function useSubmission<P, R = unknown>(actor: SubmitActor) {
  return {
    submitting: useSelector(actor, (s) => s.hasTag('submitting')),
    done: useSelector(actor, (s) => s.matches('done')),
    error: useSelector(actor, (s) => s.context.error),
    result: useSelector(actor, (s) => s.context.result) as R | null,
    submit: (payload: P) => actor.send({ type: 'SUBMIT', payload }),
    reset: () => actor.send({ type: 'RESET' }),
  };
}
