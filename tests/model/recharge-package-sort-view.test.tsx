/**
 * Moving a recharge package up or down (src/machines/package-sort.ts) through /account/recharge,
 * against a hand-written oracle: the machine's shortest paths only propose event
 * sequences; each step is a click on a package's move button or a fake endpoint of the recharge
 * area settling (`provideArea`): reading the whole current order, saving the new one. After each
 * step the test checks the list a person sees (its order, which move buttons wait), and the
 * row's side effects: the calls, the list shown afresh, the notice of a package moved.
 */
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { RechargePackage } from '../../src/api/contract/recharge';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { rechargeArea } from '../../src/app/actors/recharge';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import {
  packageSortMachine,
  type PackageSortEvent,
  type PackageSortSnapshot,
} from '../../src/machines/package-sort';
import RechargePage from '../../src/views/account/recharge-page';
import { replyError } from './fixtures';
import { fakeRechargeEndpoints } from './recharge-fixtures';
import { fakeEndpoints, person, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, renderAt } from './view-harness';

const fill = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));

/** Three packages: Alpha (A, id 10), Beta (B, 20), Gamma (C, 30). */
const LETTER: Record<number, string> = { 10: 'A', 20: 'B', 30: 'C' };
const NAME: Record<string, string> = { A: 'Alpha', B: 'Beta', C: 'Gamma' };
const ID: Record<string, number> = { A: 10, B: 20, C: 30 };
const pkg = (letter: string, sort: number): RechargePackage => ({
  id: ID[letter],
  name: NAME[letter],
  price: '10.00',
  money: '10.00',
  gift_money: '0.00',
  sort,
  status: 1,
  description: '',
  created_at: Date.UTC(2026, 10, 1),
  updated_at: Date.UTC(2026, 10, 1),
});
const letters = (ids: readonly number[]) => ids.map((id) => LETTER[id]).join(' ');
const REFUSED = 'List each package once, in the new order';

// ---------------------------------------------------------------------------------------------
// The oracle, from the recharge page's rule (a move reads the whole current order from the
// server and saves it with the package swapped with its neighbour; at an end nothing is saved;
// one move at a time; the list is shown afresh after every move, with a notice when one was
// saved). States: the list shown and what the last move did.

const TRANSITIONS: Record<string, string> = {
  'A B C MOVE B up': 'reading, B up',
  'A B C MOVE B down': 'reading, B down',
  'reading, B up read: A B C': 'saving B A C',
  // Meanwhile Beta became first on the server: nothing to save, the server's order is shown.
  'reading, B up read: B A C': 'B A C, nothing moved',
  'reading, B up read: no reply': 'A B C, move failed',
  'reading, B down read: A B C': 'saving A C B',
  'reading, B down read: no reply': 'A B C, move failed',
  'saving B A C save: done': 'B A C, B moved up',
  'saving B A C save: refused': 'A B C, move failed',
  'saving A C B save: done': 'A C B, B moved down',
  'saving A C B save: refused': 'A B C, move failed',
  // The next move starts clean.
  'A B C, move failed MOVE B up': 'reading, B up',
  'B A C, B moved up MOVE B down': 'reading, B down',
  'B A C, nothing moved MOVE B down': 'reading, B down',
};

/** The order each state shows. */
const shown = (state: string) =>
  state.startsWith('reading') || state.startsWith('saving') ? null : state.slice(0, 5);

function effectsOf(target: string): string[] {
  const effects: string[] = [];
  if (target.startsWith('reading')) effects.push('order read');
  const saving = /^saving (.+)$/.exec(target);
  if (saving) effects.push(`order saved: ${saving[1]}`);
  // Every move that ends shows the list afresh.
  if (!target.startsWith('reading') && !saving) effects.push('list reloaded');
  const moved = /B moved (up|down)/.exec(target);
  if (moved) {
    const id: MessageId = moved[1] === 'up' ? 'packages.movedUp' : 'packages.movedDown';
    effects.push(`notice: ${fill(id, { name: 'Beta' })}`);
  }
  return effects.sort();
}
const EFFECTS = Object.fromEntries(
  Object.entries(TRANSITIONS).map(([row, target]) => [row, effectsOf(target)]),
);

// ---------------------------------------------------------------------------------------------

type PathEvent = PackageSortEvent | { type: string; output?: unknown; error?: unknown };
const EVENTS: PathEvent[] = [
  { type: 'MOVE', id: 20, direction: 'up' },
  { type: 'MOVE', id: 20, direction: 'down' },
  { type: 'xstate.done.actor.readOrder', output: [10, 20, 30] },
  { type: 'xstate.done.actor.readOrder', output: [20, 10, 30] },
  { type: 'xstate.error.actor.readOrder', error: replyError('http.networkError', 'transport') },
  { type: 'xstate.done.actor.saveOrder', output: null },
  { type: 'xstate.error.actor.saveOrder', error: replyError(REFUSED) },
];

function label(event: PathEvent): string {
  if (event.type === 'MOVE') {
    const e = event as PackageSortEvent;
    return `MOVE ${LETTER[e.id]} ${e.direction}`;
  }
  const [, outcome, call] = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type)!;
  const name = call === 'readOrder' ? 'read' : 'save';
  if (outcome === 'error') return `${name}: ${name === 'read' ? 'no reply' : 'refused'}`;
  return name === 'read'
    ? `read: ${letters((event as { output: number[] }).output)}`
    : 'save: done';
}

/** The machine's state under the table's names (the list shown comes from the server fake). */
function nameOf(s: PackageSortSnapshot, list: string): string {
  const c = s.context;
  if (s.value === 'reading') return `reading, ${LETTER[c.move!.id]} ${c.move!.direction}`;
  if (s.value === 'saving') return `saving ${letters(c.ids ?? [])}`;
  if (c.settled === 0) return list;
  if (c.error) return `${list}, move failed`;
  if (c.moved) return `${list}, ${LETTER[c.moved.id]} moved ${c.moved.direction}`;
  return `${list}, nothing moved`;
}

/** The server's order after the machine's steps so far (what the traversal cannot see). */
function serverOrder(s: PackageSortSnapshot): string {
  const c = s.context;
  if (s.value !== 'idle' || c.settled === 0 || c.error) return 'A B C';
  if (c.moved) return c.moved.direction === 'up' ? 'B A C' : 'A C B';
  return 'B A C';
}

function setup() {
  const endpoints = fakeEndpoints();
  const actors = appActors({});
  // The server: its order of the packages; the list's reads answer at once.
  let order = [10, 20, 30];
  const list = () => ({ list: order.map((id, i) => pkg(LETTER[id], i + 1)), total: 3 });
  const reloads: string[] = [];
  const read = endpoints.endpoint<unknown[], { list: RechargePackage[]; total: number }>(
    'readOrder',
  );
  const save = endpoints.endpoint<unknown[], unknown>('sortPackages');
  let sent: number[] = [];
  provideArea(
    actors,
    rechargeArea,
    fakeRechargeEndpoints(endpoints, {
      // The page's list asks with its filters; the move reads the whole order without.
      getPackages: async (query, options) => {
        if (!('name' in (query ?? {}))) return read(query, options);
        reloads.push('list reloaded');
        return list();
      },
      sortPackages: (body) => {
        sent = body.ids.map(Number);
        return save(body) as never;
      },
    }),
  );
  const sorter = areasOf(actors).get(rechargeArea).packageSort;
  renderAt(actors, <RechargePage />, '/account/recharge');
  const user = person();
  const seenToasts = new WeakSet<Element>();
  return {
    endpoints,
    actors,
    user,
    setOrder: (ids: number[]) => (order = ids),
    /** The order the last save sent. */
    sent: () => sent,
    serverList: list,
    actual: () => nameOf(sorter.getSnapshot(), letters(order)),
    take: () => {
      const toasts = [...document.querySelectorAll('[data-scope="toast"][data-part="root"]')];
      const fresh = toasts.filter((t) => !seenToasts.has(t));
      fresh.forEach((t) => seenToasts.add(t));
      const calls = endpoints.calls.splice(0).map((c) => {
        if (c.name === 'readOrder') return 'order read';
        expect(c.name).toBe('sortPackages');
        return `order saved: ${letters((c.input as [{ ids: number[] }])[0].ids)}`;
      });
      return [
        ...calls,
        ...reloads.splice(0),
        ...fresh.map((t) => `notice: ${t.textContent}`),
      ].sort();
    },
  };
}
type World = ReturnType<typeof setup>;

const table = () => screen.getByRole('table', { name: enUS['packages.list'] });
const moveButton = (letter: string, direction: 'up' | 'down') =>
  within(table()).getByRole('button', {
    name: fill(direction === 'up' ? 'packages.moveUp' : 'packages.moveDown', {
      name: NAME[letter],
    }),
  }) as HTMLButtonElement;

/** What a person sees: the order of the list and which move buttons they may press. */
function sees(state: string, before: { list: string }) {
  const order = shown(state) ?? before.list;
  const names = within(table())
    .getAllByRole('cell')
    .map((c) => c.textContent ?? '')
    .filter((t) => Object.values(NAME).includes(t));
  expect(names).toEqual(order.split(' ').map((l) => NAME[l]));
  const busy = shown(state) === null;
  const letters3 = order.split(' ');
  for (const [i, letter] of letters3.entries()) {
    // While a move runs, every move waits; else only the ends cannot move further.
    expect(moveButton(letter, 'up').disabled).toBe(busy || i === 0);
    expect(moveButton(letter, 'down').disabled).toBe(busy || i === letters3.length - 1);
  }
  // A saved move gives the focus back to the package's button that can still move.
  const moved = /B moved (up|down)/.exec(state);
  if (moved) {
    const at = letters3.indexOf('B');
    const expected = moved[1] === 'up' ? (at === 0 ? 'down' : 'up') : at === 2 ? 'up' : 'down';
    expect(document.activeElement).toBe(moveButton('B', expected));
  }
  before.list = order;
}

async function exec(world: World, event: PathEvent) {
  const lbl = label(event);
  if (event.type === 'MOVE') {
    const e = event as PackageSortEvent;
    await world.user.click(moveButton(LETTER[e.id], e.direction));
    return;
  }
  if (lbl === 'read: no reply' || lbl === 'save: refused') {
    const name = lbl.startsWith('read') ? 'readOrder' : 'sortPackages';
    await world.endpoints.settle(name, 'error', (event as { error: unknown }).error);
    return;
  }
  if (lbl.startsWith('read: ')) {
    // The server's order is what the read says.
    const ids = (event as { output: number[] }).output;
    world.setOrder(ids);
    await world.endpoints.settle('readOrder', 'done', world.serverList());
    return;
  }
  // Saved: the server keeps the order sent.
  world.setOrder(world.sent());
  await world.endpoints.settle('sortPackages', 'done', { ids: world.sent() });
}

beforeAll(async () => {
  await import('../../src/components/toaster-store');
  await import('../../src/app/theme/theme-later');
  await import('../../src/components/app-toaster');
});
viewPathHooks();

describe('moving a recharge package, path by path', () => {
  uiPaths({
    oracle: { initial: 'A B C', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(packageSortMachine, {
      events: (s) =>
        EVENTS.filter(
          (e) => `${nameOf(s, serverOrder(s))} ${label(e)}` in TRANSITIONS,
        ) as PackageSortEvent[],
      serializeState: (s, e) => JSON.stringify([nameOf(s, serverOrder(s)), e ? label(e) : null]),
    }),
    run: async (_, walk) => {
      const world = setup();
      const before = { list: 'A B C' };
      await walk({
        exec: (event) => exec(world, event),
        sees: Object.fromEntries(
          ['A B C', ...Object.values(TRANSITIONS)].map((s) => [s, () => sees(s, before)]),
        ),
        actual: world.actual,
        effects: { take: world.take, expected: EFFECTS },
      });
      areasOf(world.actors).reset();
      world.actors.dispose();
    },
    timeout: 60_000,
  });
});
