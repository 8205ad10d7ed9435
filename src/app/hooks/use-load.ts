import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { LoadActor } from '../actors/factories';

/**
 * A load actor of an area module (src/app/actors) as a view's handle. With `fresh`, a view built
 * afresh (opened again with the tab bar off, or its tab reloaded) fetches again, as the spec's
 * tabs promise; a page kept alive in its tab is not built again, so it does not (its effects run
 * again when its tab is shown, hence the per-build ref). The first build finds the actor loading
 * already, which takes no RELOAD.
 */
export function useLoadActor<T>(actor: LoadActor<T>, options: { fresh?: boolean } = {}) {
  const data = useSelector(actor, (s) => s.context.data as T | null);
  const loading = useSelector(actor, (s) => s.hasTag('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const { fresh = false } = options;
  const built = useRef(false);
  useEffect(() => {
    if (!fresh || built.current) return;
    built.current = true;
    actor.send({ type: 'RELOAD' });
  }, [actor, fresh]);
  return { data, loading, failed, reload: () => actor.send({ type: 'RELOAD' }) };
}
