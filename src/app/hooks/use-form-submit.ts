import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { formSubmitMachine } from '../../machines/form-submit';

/** A form's submission machine, with the call injected; the view reads its state. */
export function useFormSubmit<P, R>(submit: (payload: P) => Promise<R>) {
  const [state, send] = useMachine(
    formSubmitMachine.provide({
      actors: { submit: fromPromise(({ input }) => submit(input.payload as P)) },
    }),
  );
  return {
    submitting: state.hasTag('submitting'),
    done: state.matches('done'),
    error: state.context.error,
    result: state.context.result as R | null,
    submit: (payload: P) => send({ type: 'SUBMIT', payload }),
    reset: () => send({ type: 'RESET' }),
  };
}
