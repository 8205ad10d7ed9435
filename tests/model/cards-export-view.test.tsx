/**
 * The export machine (src/machines/cards/export.ts) through the card page's real Export button
 * and its status line, against a hand-written oracle: the machine's shortest paths only propose
 * event sequences; each step is a click (after filtering the list or selecting rows), the fake
 * `requestExportTicket` endpoint settling, or the handover time passing, and the state after it
 * comes from the table below, asserted on screen, with the query sent. The browser is handed the
 * ticket's download (an effect of that row only), never a session token.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { ExportTicketReply } from '../../src/api/contract/cards';
import { exportMachine } from '../../src/machines/cards/export';
import { cardsWorld, field, text } from './cards-world';
import { replyError } from './fixtures';
import { settle, uiPaths, viewPathHooks } from './ui-paths';

const TICKET: ExportTicketReply = {
  ticket: 'a'.repeat(43),
  expires_at: Date.UTC(2026, 10, 22, 12, 1),
  url: `/api/v1/recharge_card/export_data?ticket=${'a'.repeat(43)}`,
};
const REFUSED = 'Too many cards to export';
/** How long "downloading" shows after the browser was handed the file (the cards area's). */
const HANDOVER_MS = 1500;

// ---------------------------------------------------------------------------------------------
// The oracle, written from the spec: a ticket for the query, then the browser downloads it; one
// export at a time; another export after the outcome.

const TRANSITIONS: Record<string, string> = {
  'idle EXPORT filtered': 'requesting',
  'idle EXPORT selected': 'requesting',
  'requesting done requestTicket': 'downloading',
  'requesting error requestTicket': 'failed',
  'downloading done download': 'done',
  'done EXPORT filtered': 'requesting',
  'failed EXPORT filtered': 'requesting',
};

/** The browser is handed the ticket's file, once, when the ticket comes. */
const EFFECTS: Record<string, string[]> = {
  'requesting done requestTicket': [`download ${TICKET.ticket}`],
};

type PathEvent = { type: string; query?: object };

const label = (event: PathEvent) => {
  if (event.type === 'EXPORT') return `EXPORT ${'ids' in event.query! ? 'selected' : 'filtered'}`;
  return event.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');
};

// ---------------------------------------------------------------------------------------------

function setup() {
  const world = cardsWorld('partner');
  /** Which export the person asked for (the test's own record, from its clicks). */
  let selected = false;
  const exportButton = () => world.pageButton(/^Export( selected)?$/);

  const exec = async (event: PathEvent) => {
    const { user } = world;
    switch (event.type) {
      case 'EXPORT': {
        selected = 'ids' in event.query!;
        if (selected) {
          for (const row of ['P261122000011', 'P261122000012']) {
            const box = screen.getByRole('checkbox', {
              name: text('cards.selectCard', { card: row }),
            }) as HTMLInputElement;
            if (!box.checked) await user.click(box);
            await settle();
          }
        } else {
          // The list filtered to unused cards: the export asks for the same.
          const filters = within(screen.getByRole('search', { name: text('cards.filters') }));
          const status = field(filters, text('cards.status'), 'combobox');
          if (status.value !== '0') {
            await user.selectOptions(status, '0');
            await user.click(filters.getByRole('button', { name: text('filter.search') }));
            await settle();
          }
        }
        world.effects.take();
        const before = world.endpoints.calls.length;
        await user.click(exportButton());
        const calls = world.endpoints.calls.slice(before);
        expect(calls.map((c) => c.name)).toEqual(['requestExportTicket']);
        expect((calls[0].input as unknown[])[0]).toEqual(
          selected ? { ids: [11, 12] } : { status: '0' },
        );
        return;
      }
      case 'xstate.done.actor.requestTicket':
        return world.endpoints.settle('requestExportTicket', 'done', TICKET);
      case 'xstate.error.actor.requestTicket':
        return world.endpoints.settle('requestExportTicket', 'error', replyError(REFUSED));
      case 'xstate.done.actor.download':
        await vi.advanceTimersByTimeAsync(HANDOVER_MS);
        return;
      default:
        throw new Error(`a person cannot cause ${event.type}`);
    }
  };

  const sees = (state: string) => () => {
    const button = exportButton();
    expect(button.textContent).toBe(selected ? text('cards.exportSelected') : text('cards.export'));
    const busy = state === 'requesting' || state === 'downloading';
    // One export at a time: the button shows progress and takes no click.
    expect(button.getAttribute('aria-busy')).toBe(String(busy));
    expect(button.hasAttribute('disabled')).toBe(busy);
    const status = screen.getByTestId('export-status');
    expect(status.getAttribute('role')).toBe('status');
    const says: Record<string, string> = {
      idle: '',
      requesting: text('cards.exportPreparing'),
      downloading: 'Downloading 2 cards…',
      done: text('cards.exportStarted'),
      failed: REFUSED,
    };
    expect(status.textContent).toBe(says[state]);
  };

  const actual = () => String(world.area().export.getSnapshot().value);
  return { world, exec, sees, actual, exportButton };
}

viewPathHooks();

describe('the export (a partner)', () => {
  uiPaths({
    oracle: { initial: 'idle', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(exportMachine, {
      events: (s) =>
        (
          [
            { type: 'EXPORT', query: { status: '0' }, count: 2 },
            // A selection is exported from a fresh page (a new one after an outcome).
            ...(s.matches('idle') ? [{ type: 'EXPORT', query: { ids: [11, 12] }, count: 2 }] : []),
            // DISMISS: no control of the page sends it (the outcome stays until the next export).
            { type: 'xstate.done.actor.requestTicket', output: TICKET },
            { type: 'xstate.error.actor.requestTicket', error: replyError(REFUSED) },
            // The browser was handed the file; a refused handover: its own test below.
            { type: 'xstate.done.actor.download' },
          ] as never[]
        ).filter((e) => s.can(e)),
      serializeState: (s, e) => JSON.stringify([s.value, e ? label(e as PathEvent) : null]),
    }),
    run: async (_, walk) => {
      const { world, exec, sees, actual } = setup();
      await walk({
        exec,
        sees: Object.fromEntries(['idle', ...Object.values(TRANSITIONS)].map((s) => [s, sees(s)])),
        actual,
        effects: { take: world.effects.take, expected: EFFECTS },
      });
      world.dispose();
    },
    timeout: 120_000,
  });
});

test('a download the browser refuses is a failed export, with its reason', async () => {
  const { world, exec } = setup();
  world.refuseDownload = true;
  await settle();
  await exec({ type: 'EXPORT', query: { status: '0' } });
  await exec({ type: 'xstate.done.actor.requestTicket' });
  expect(world.effects.take()).toEqual([`download ${TICKET.ticket}`]);
  expect(world.area().export.getSnapshot().value).toBe('failed');
  expect(screen.getByTestId('export-status').textContent).toBe('The browser refused the download');
  world.dispose();
}, 120_000);
