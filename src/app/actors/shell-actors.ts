/**
 * The shell's actors (docs/architecture.md rule 2): the menu from the server, the layout settings and
 * the open tabs. They are about a session, so they load with it (app-actors.ts `loadShell`: at
 * start-up when a session is stored, else on the way to the first signed-in page) and never with
 * the signed-out login page, which shows none of them.
 */
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { menuMachine } from '../../machines/menu';
import { settingsMachine, type PersistedSettings, type Theme } from '../../machines/settings';
import { tabsMachine, type TabEntry } from '../../machines/tabs';
import type { MenuItem } from '../../api/contract/dashboard';
import { inspection } from './inspection';

export interface KeyValueStore {
  read(): unknown;
  write(value: unknown): void;
}

export interface ShellDeps {
  getUserMenu: () => Promise<MenuItem[]>;
  /** Where the layout settings and the open tabs are kept (local / session storage). */
  layoutStore: KeyValueStore;
  tabStore: KeyValueStore;
  /** Page effects of the settings: theme classes and the colour-weak filter. */
  applyTheme: (theme: Theme) => void;
  applyColorWeak: (on: boolean) => void;
}

export interface ShellActors {
  menu: ActorRefFrom<typeof menuMachine>;
  settings: ActorRefFrom<typeof settingsMachine>;
  tabs: ActorRefFrom<typeof tabsMachine>;
  stop(): void;
}

export type ShellActorsFactory = (deps: ShellDeps) => ShellActors;

/** Creates and starts the shell's actors with the real effects injected. */
export function createShellActors(deps: ShellDeps): ShellActors {
  const menu = createActor(
    menuMachine.provide({
      actors: { fetchMenu: fromPromise(() => deps.getUserMenu()) },
    }),
    { ...inspection(), systemId: 'menu' },
  );

  const settings = createActor(
    settingsMachine.provide({
      actions: {
        applyTheme: (_, { theme }) => deps.applyTheme(theme),
        applyColorWeak: (_, { on }) => deps.applyColorWeak(on),
        loadServerMenu: () => menu.send({ type: 'LOAD' }),
        clearServerMenu: () => menu.send({ type: 'CLEAR' }),
        persist: (_, { settings: value }: { settings: PersistedSettings }) =>
          deps.layoutStore.write(value),
      },
    }),
    { ...inspection(), systemId: 'settings', input: { stored: deps.layoutStore.read() } },
  );

  const tabs = createActor(
    tabsMachine.provide({
      actions: {
        persist: (_, { tabs: value }: { tabs: TabEntry[] }) => deps.tabStore.write(value),
      },
    }),
    { ...inspection(), systemId: 'tabs', input: { stored: deps.tabStore.read() } },
  );

  menu.start();
  settings.start();
  tabs.start();
  return {
    menu,
    settings,
    tabs,
    stop() {
      tabs.stop();
      settings.stop();
      menu.stop();
    },
  };
}
