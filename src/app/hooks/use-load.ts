import { useMachine, useSelector } from '@xstate/react';
import type { LoadActor } from '../actors/factories';
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

/** A load actor of an area module (src/app/actors) as a view's handle. */
export function useLoadActor<T>(actor: LoadActor<T>) {
  const data = useSelector(actor, (s) => s.context.data as T | null);
  const loading = useSelector(actor, (s) => s.hasTag('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  return { data, loading, failed, reload: () => actor.send({ type: 'RELOAD' }) };
}
