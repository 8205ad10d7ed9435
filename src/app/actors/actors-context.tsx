import { createContext, useContext } from 'react';
import type { AppActors } from './app-actors';

export type { AppActors };

/** App-level actors live outside React (main.tsx); views reach them through this plain context. */
export const ActorsContext = createContext<AppActors | null>(null);

export function useAppActors(): AppActors {
  const actors = useContext(ActorsContext);
  if (!actors) throw new Error('useAppActors outside ActorsContext');
  return actors;
}
