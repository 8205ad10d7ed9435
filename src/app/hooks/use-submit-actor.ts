import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { SubmitActor } from '../actors/factories';

/** A form-submit actor of an area module as a view's handle (the view reads, submits, resets). */
export function useSubmitActor<P, R>(actor: SubmitActor) {
  const submitting = useSelector(actor, (s) => s.hasTag('submitting'));
  const done = useSelector(actor, (s) => s.matches('done'));
  const error = useSelector(actor, (s) => s.context.error);
  const result = useSelector(actor, (s) => s.context.result as R | null);
  const commands = useMemo(
    () => ({
      submit: (payload: P) => actor.send({ type: 'SUBMIT', payload }),
      reset: () => actor.send({ type: 'RESET' }),
    }),
    [actor],
  );
  return { submitting, done, error, result, ...commands };
}
