import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { LoadActor } from '../actors/factories';

/** The load actors some build of a page has shown (a later build is a rebuild). */
const shown = new WeakSet<LoadActor<unknown>>();

/**
 * A load actor of an area module (src/app/actors) as a view's handle. With `fresh`, a page built
 * again (opened again with the tab bar off, or its tab reloaded) fetches again, as the spec's tabs
 * promise; the first build shows what the new actor loads, and a page kept alive in its tab is not
 * built again (its effects run again when its tab is shown, hence the per-build ref).
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
    const any = actor as LoadActor<unknown>;
    if (shown.has(any)) actor.send({ type: 'RELOAD' });
    else shown.add(any);
  }, [actor, fresh]);
  return { data, loading, failed, reload: () => actor.send({ type: 'RELOAD' }) };
}
