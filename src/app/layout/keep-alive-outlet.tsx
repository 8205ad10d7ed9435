import { useSelector } from '@xstate/react';
import { Activity, useRef, type ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router-dom';
import { useAppActors } from '../actors-context';
import { fullPathOf } from './tab-bar';

/**
 * The open page, and with the tab bar on, the pages of the cache list kept alive behind it in
 * hidden <Activity> boundaries: switching tabs shows them again with their state and without
 * refetching. Pages not in the cache list (closed, reloaded, ignoreCache) render afresh.
 */
export function KeepAliveOutlet() {
  const { settings, tabs } = useAppActors();
  const tabBar = useSelector(settings, (s) => s.context.tabBar);
  const cacheList = useSelector(tabs, (s) => s.context.cacheList);
  const outlet = useOutlet();
  const key = fullPathOf(useLocation());
  const cache = useRef(new Map<string, ReactNode>());

  if (!tabBar) {
    cache.current.clear();
    return outlet;
  }
  const kept = cache.current;
  if (outlet) kept.set(key, outlet);
  for (const cached of [...kept.keys()]) {
    if (cached !== key && !cacheList.includes(cached)) kept.delete(cached);
  }
  return (
    <>
      {[...kept.entries()].map(([path, element]) => (
        <Activity key={path} mode={path === key ? 'visible' : 'hidden'}>
          {element}
        </Activity>
      ))}
    </>
  );
}
