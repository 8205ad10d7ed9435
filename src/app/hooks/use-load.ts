import { useSelector } from '@xstate/react';
import type { LoadActor } from '../actors/factories';

/** A load actor of an area module (src/app/actors) as a view's handle. */
export function useLoadActor<T>(actor: LoadActor<T>) {
  const data = useSelector(actor, (s) => s.context.data as T | null);
  const loading = useSelector(actor, (s) => s.hasTag('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  return { data, loading, failed, reload: () => actor.send({ type: 'RELOAD' }) };
}
