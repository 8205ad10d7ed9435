/**
 * The settings and prices page's machine (src/machines/platform-settings.ts) through the real
 * page (/account/settings, the admin's view), against the hand-written table below: the load and
 * its failure with Retry, a price typed (changed, back to the loaded value, not a number), Undo,
 * Save (the form's check refuses a bad value with the contract's reason; a good one is sent with
 * only the changed key), the server's answer and its refusal. The machine only proposes paths.
 */
import { screen } from '@testing-library/react';
import { describe, expect } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { PlatformConfig, SettingView } from '../../src/api/contract/settings';
import { ApiError } from '../../src/api/http';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { platformSettingsArea } from '../../src/app/actors/platform-settings';
import { authMachine } from '../../src/machines/auth';
import {
  changedValues,
  platformSettingsMachine,
  problemsOf,
} from '../../src/machines/platform-settings';
import SettingsPage from '../../src/views/account/settings-page';
import { userFixture } from './fixtures';
import { text } from './messages';
import { person, settle, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, renderAt } from './view-harness';

const KEY = 'video_output_cost';
const REFUSAL = 'video_output_cost must be between 0.00 and 10000.00';

const view = (value: string): SettingView => ({
  key: KEY,
  group: 'price',
  kind: 'money',
  unit: 'money_per_output',
  min: '0.00',
  max: '10000.00',
  options: null,
  value,
  platform_value: value,
  effective: value,
  overridable: false,
});
const configOf = (value: string): PlatformConfig => ({
  scope: 'platform',
  settings: [
    view(value),
    {
      ...view('1'),
      key: 'saler_show',
      group: 'show',
      kind: 'flag',
      unit: null,
      min: null,
      max: null,
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// The table (hand-written): states as a person tells them apart.

const TABLE: Record<string, string> = {
  'loading done.actor.load': 'clean',
  'loading error.actor.load': 'failed',
  'failed RELOAD': 'loading',
  'clean EDIT changed': 'dirty',
  'clean EDIT bad': 'dirty bad',
  'dirty EDIT original': 'clean',
  'dirty EDIT bad': 'dirty bad',
  'dirty RESET': 'clean',
  'dirty SAVE': 'saving',
  'dirty bad EDIT changed': 'dirty',
  'dirty bad EDIT original': 'clean',
  'dirty bad RESET': 'clean',
  'dirty bad SAVE': 'dirty bad shown',
  'dirty bad shown EDIT changed': 'dirty',
  'dirty bad shown EDIT original': 'clean',
  'dirty bad shown RESET': 'clean',
  'dirty bad shown SAVE': 'dirty bad shown',
  'saving done.actor.save': 'clean',
  'saving error.actor.save': 'dirty refused',
  'dirty refused SAVE': 'saving',
  'dirty refused RESET': 'clean',
  'dirty refused EDIT original': 'clean',
  'dirty refused EDIT bad': 'dirty bad',
};

type Snapshot = SnapshotFrom<typeof platformSettingsMachine>;
type Edit = { type: 'EDIT'; key: string; value: string; kind: 'changed' | 'original' | 'bad' };

const label = (event: EventObject) =>
  event.type === 'EDIT' ? `EDIT ${(event as Edit).kind}` : event.type.replace(/^xstate\./, '');

/** The table's name of a machine state (checked against the table, never used as expected). */
function stateOf(s: Snapshot): string {
  if (s.matches('loading')) return 'loading';
  if (s.matches('failed')) return 'failed';
  if (s.matches('saving')) return 'saving';
  if (s.matches({ ready: 'clean' })) return 'clean';
  if (Object.keys(problemsOf(s.context)).length === 0) {
    return s.context.error ? 'dirty refused' : 'dirty';
  }
  return Object.keys(s.context.problems).length > 0 ? 'dirty bad shown' : 'dirty bad';
}

function events(s: Snapshot): EventObject[] {
  const loaded = s.context.config?.settings.find((v) => v.key === KEY)?.value ?? '0.10';
  const changed = loaded === '0.10' ? '0.20' : '0.10';
  const all: EventObject[] = [
    { type: 'RELOAD' },
    { type: 'RESET' },
    { type: 'SAVE' },
    { type: 'EDIT', key: KEY, value: changed, kind: 'changed' } as Edit,
    { type: 'EDIT', key: KEY, value: loaded, kind: 'original' } as Edit,
    { type: 'EDIT', key: KEY, value: 'abc', kind: 'bad' } as Edit,
  ];
  if (s.matches('loading')) {
    all.push(
      { type: 'xstate.done.actor.load', output: configOf('0.10') } as EventObject,
      { type: 'xstate.error.actor.load', error: new Error('http.requestError') } as EventObject,
    );
  }
  if (s.matches('saving')) {
    const saved = changedValues(s.context)[KEY] ?? loaded;
    all.push(
      { type: 'xstate.done.actor.save', output: configOf(saved) } as EventObject,
      { type: 'xstate.error.actor.save', error: new Error(REFUSAL) } as EventObject,
    );
  }
  return all.filter((e) => `${stateOf(s)} ${label(e)}` in TABLE);
}

// ---------------------------------------------------------------------------------------------
// The page with endpoints the path settles.

interface Pending {
  resolve: (value: PlatformConfig) => void;
  reject: (error: unknown) => void;
}

async function world() {
  const auth = createActor(
    authMachine.provide({
      actors: { getUserInfo: fromPromise(async () => userFixture({ user_type: 0 })) },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  const waiting: Record<'load' | 'save', Pending[]> = { load: [], save: [] };
  const sent: Record<string, string>[] = [];
  /** The loaded value: what a clean form shows. */
  let loaded = '0.10';
  provideArea(actors, platformSettingsArea, {
    getPlatformConfig: () =>
      new Promise<PlatformConfig>((resolve, reject) => waiting.load.push({ resolve, reject })),
    setPlatformConfig: (values) => {
      sent.push(values);
      return new Promise<PlatformConfig>((resolve, reject) =>
        waiting.save.push({ resolve, reject }),
      );
    },
  });
  renderAt(actors, <SettingsPage />, '/account/settings');
  for (let i = 0; i < 4; i++) await settle();
  const user = person();
  const field = () =>
    screen.getByRole('textbox', { name: text('platformSettings.key.video_output_cost') });
  const button = (id: Parameters<typeof text>[0]) => screen.getByRole('button', { name: text(id) });

  async function exec(event: EventObject) {
    switch (event.type) {
      case 'EDIT': {
        await user.clear(field());
        await user.type(field(), (event as Edit).value);
        return;
      }
      case 'SAVE':
        return user.click(button('platformSettings.save'));
      case 'RESET':
        return user.click(button('platformSettings.reset'));
      case 'RELOAD':
        return user.click(button('load.retry'));
      case 'xstate.done.actor.load':
        waiting.load.shift()!.resolve(configOf(loaded));
        return settle();
      case 'xstate.error.actor.load':
        waiting.load.shift()!.reject(
          new ApiError({
            kind: 'transport',
            msg: 'http.requestError',
            path: '/platform/get_platform_config',
          }),
        );
        return settle();
      case 'xstate.done.actor.save': {
        const values = sent.at(-1)!;
        expect(Object.keys(values)).toEqual([KEY]);
        loaded = values[KEY];
        waiting.save.shift()!.resolve(configOf(loaded));
        return settle();
      }
      case 'xstate.error.actor.save':
        waiting.save
          .shift()!
          .reject(
            new ApiError({ kind: 'reply', msg: REFUSAL, path: '/platform/set_config', code: 0 }),
          );
        return settle();
    }
  }

  const saveButton = () => button('platformSettings.save');
  const problem = () => screen.queryByText(text('platformSettings.invalid'));
  const refusal = () => screen.queryByRole('alert');
  const sees: Record<string, () => void> = {
    loading: () => {
      expect(screen.getByRole('status', { name: text('app.loading') })).toBeTruthy();
    },
    failed: () => {
      expect(screen.getByText(text('load.failed'))).toBeTruthy();
    },
    clean: () => {
      expect((field() as HTMLInputElement).value).toBe(loaded);
      expect(saveButton()).toHaveProperty('disabled', true);
      expect(button('platformSettings.reset')).toHaveProperty('disabled', true);
      expect(problem()).toBeNull();
      expect(refusal()).toBeNull();
      // The other groups are there, with their units.
      expect(
        screen.getByRole('heading', { name: text('platformSettings.group.show') }),
      ).toBeTruthy();
      expect(screen.getByText('Coins per video')).toBeTruthy();
    },
    dirty: () => {
      expect((field() as HTMLInputElement).value).not.toBe(loaded);
      expect(saveButton()).toHaveProperty('disabled', false);
      expect(problem()).toBeNull();
      expect(refusal()).toBeNull();
    },
    'dirty bad': () => {
      expect((field() as HTMLInputElement).value).toBe('abc');
      expect(saveButton()).toHaveProperty('disabled', false);
      expect(problem()).toBeNull();
    },
    'dirty bad shown': () => {
      expect((field() as HTMLInputElement).value).toBe('abc');
      expect(problem()).not.toBeNull();
      expect(field().getAttribute('aria-invalid')).toBe('true');
    },
    saving: () => {
      expect(saveButton().getAttribute('aria-busy')).toBe('true');
    },
    'dirty refused': () => {
      expect(refusal()?.textContent).toContain(REFUSAL);
      expect((field() as HTMLInputElement).value).not.toBe(loaded);
    },
  };
  // The area's own actor, read for the `actual` check only.
  const actual = () => stateOf(areasOf(actors).get(platformSettingsArea).form.getSnapshot());
  return { actors, exec, sees, actual };
}

/** A path written by hand (the loaded value is 0.10 throughout: no save succeeds before its end). */
const E = {
  loaded: { type: 'xstate.done.actor.load' },
  loadFailed: { type: 'xstate.error.actor.load' },
  saved: { type: 'xstate.done.actor.save' },
  refused: { type: 'xstate.error.actor.save' },
  changed: { type: 'EDIT', key: KEY, value: '0.20', kind: 'changed' } as Edit,
  original: { type: 'EDIT', key: KEY, value: '0.10', kind: 'original' } as Edit,
  bad: { type: 'EDIT', key: KEY, value: 'abc', kind: 'bad' } as Edit,
  save: { type: 'SAVE' },
  reset: { type: 'RESET' },
  reload: { type: 'RELOAD' },
} satisfies Record<string, EventObject>;
const byHand = (...events: EventObject[]) => ({
  steps: [{ type: 'xstate.init' }, ...events].map((event) => ({ event })),
});
/** The rows the shortest paths leave out: going back (Undo, the loaded value typed again), Retry. */
const MORE = [
  byHand(E.loadFailed, E.reload, E.loaded, E.changed, E.original),
  byHand(E.loaded, E.changed, E.reset),
  byHand(E.loaded, E.bad, E.original),
  byHand(E.loaded, E.bad, E.reset),
  byHand(E.loaded, E.bad, E.save, E.original),
  byHand(E.loaded, E.bad, E.save, E.reset),
  byHand(E.loaded, E.changed, E.save, E.refused, E.reset),
  byHand(E.loaded, E.changed, E.save, E.refused, E.original),
  byHand(E.loaded, E.changed, E.save, E.saved),
];

describe('the settings page (admin)', () => {
  viewPathHooks();
  uiPaths({
    oracle: { initial: 'loading', transitions: TABLE, label },
    proposed: getShortestPaths(platformSettingsMachine, {
      events: events as never,
      serializeState: (s) => {
        const snap = s as unknown as Snapshot;
        return JSON.stringify([
          stateOf(snap),
          snap.context.config?.settings.find((v) => v.key === KEY)?.value ?? null,
        ]);
      },
    }) as never,
    more: MORE,
    timeout: 60_000,
    run: async (_path, walk) => {
      const w = await world();
      try {
        await walk({ exec: w.exec, sees: w.sees, actual: w.actual });
      } finally {
        w.actors.dispose();
      }
    },
  });
});
