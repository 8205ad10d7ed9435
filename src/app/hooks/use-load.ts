import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { createLoadMachine } from '../../machines/load';

/** Runs a load machine for a view; the view renders its states and sends RELOAD. */
export function useLoad<T>(id: string, load: () => Promise<T>) {
  // The machine is built once per view instance; `load` is read when the actor starts.
  const machine = useMemo(
    () => createLoadMachine<T>(id).provide({ actors: { load: fromPromise(() => load()) } }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [id],
  );
  const [state, send] = useMachine(machine);
  return {
    data: state.context.data as T | null,
    loading: state.hasTag('loading'),
    failed: state.matches('failed'),
    reload: () => send({ type: 'RELOAD' }),
  };
}
