/**
 * The audit log page (/account/audit, docs/domain.md §21) over the real audit area
 * (src/app/actors/audit.ts) with fake endpoints, against hand-written oracles: the rows' list
 * machine (src/machines/list.ts: filter, next page, retry) and the export machine
 * (src/machines/cards/export.ts, its audit instance) propose event sequences; each step is a
 * click or typing on the page or a fake endpoint settling, and what a person sees after it comes
 * from the tables below. Beside them: a row opens to its diff (a secret only "changed"), and a
 * record's `?record=` link opens its timeline.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { AuditPage, AuditRow } from '../../src/api/contract/audit';
import type { ExportTicketReply } from '../../src/api/contract/cards';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import {
  auditArea,
  auditExportMachine,
  type AuditEndpoints,
  type AuditFilters,
} from '../../src/app/actors/audit';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import { createListMachine } from '../../src/machines/list';
import AuditPageView from '../../src/views/account/audit-page';
import { replyError, userFixture } from './fixtures';
import { fakeEndpoints, person, settle, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));

function row(id: number, action: string, diff: AuditRow['diff']): AuditRow {
  return {
    id,
    created_at: Date.UTC(2026, 10, 22, 3, id),
    actor_id: 7,
    actor_username: 'partner',
    actor_role: 'partner',
    original_actor_id: null,
    original_actor_username: null,
    action,
    resource_type: 'user',
    resource_id: 12,
    resource_ids: [12],
    diff,
    detail: {},
    ip: '10.1.2.3',
    user_agent: null,
    request_id: null,
    result: 'ok',
    error_code: null,
  };
}

/** 45 rows in all: three pages of 20. */
const PAGE: AuditPage = {
  list: [
    row(31, 'customer.edit', { name: { before: 'Morning shop', after: 'Evening shop' } }),
    row(30, 'customer.edit_account', { password: 'changed' }),
  ],
  total: 45,
};
const TICKET: ExportTicketReply = {
  ticket: 'a'.repeat(43),
  expires_at: Date.UTC(2026, 10, 22, 12, 1),
  url: `/api/v1/audit/export_data?ticket=${'a'.repeat(43)}`,
};
const REFUSED = 'The service is busy';
const HANDOVER_MS = 1500;

function auditWorld(path = '/account/audit') {
  const endpoints = fakeEndpoints();
  const effects: string[] = [];
  const api: AuditEndpoints = {
    getAuditList: endpoints.endpoint('getAuditList'),
    getAuditActions: async () => ({ list: ['customer.add', 'customer.edit'] }),
    requestAuditExportTicket: endpoints.endpoint('requestAuditExportTicket'),
    download: (ticket) => {
      effects.push(`download ${ticket}`);
    },
  };
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () =>
          userFixture({ accountId: 7, username: 'partner', nickname: 'Partner', user_type: 1 }),
        ),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  provideArea(actors, auditArea, api);
  renderAt(actors, <AuditPageView />, path);
  return {
    endpoints,
    user: person(),
    area: () => areasOf(actors).get(auditArea),
    effects: { take: () => effects.splice(0) },
    dispose: () => actors.dispose(),
  };
}

const table = () => screen.getByRole('table', { name: text('audit.list') });
const filterBar = () => within(screen.getByRole('search', { name: text('audit.filters') }));
const settleLabel = (event: { type: string }) =>
  event.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');

viewPathHooks();

// ---------------------------------------------------------------------------------------------
// The rows: every new query loads; a failure offers Retry; new filters start at page 1.

const LIST: Record<string, string> = {
  'loading done fetchPage': 'ready',
  'loading error fetchPage': 'failed',
  'loading SET_FILTERS': 'loading',
  'ready SET_FILTERS': 'loading',
  'ready SET_PAGE': 'loading',
  'failed SET_FILTERS': 'loading',
  'failed RELOAD': 'loading',
};

describe('the rows (a partner)', () => {
  uiPaths({
    oracle: { initial: 'loading', transitions: LIST, label: settleLabel },
    proposed: getShortestPaths(createListMachine<AuditFilters, AuditRow>('auditRows'), {
      input: {
        filters: { actor: '', action: '', resourceType: '', resourceId: '', from: '', to: '' },
      },
      events: (s) =>
        (
          [
            { type: 'SET_FILTERS', filters: {} },
            // Next page: from the first page only (the fake has three).
            ...(s.matches('ready') && s.context.query.page === 1
              ? [{ type: 'SET_PAGE', page: 2 }]
              : []),
            // Retry: shown with a failure only.
            ...(s.matches('failed') ? [{ type: 'RELOAD' }] : []),
            { type: 'xstate.done.actor.fetchPage', output: PAGE },
            { type: 'xstate.error.actor.fetchPage', error: replyError(REFUSED) },
          ] as never[]
        ).filter((e) => s.can(e)),
      serializeState: (s, e) =>
        JSON.stringify([s.value, s.context.query.page, e ? settleLabel(e as never) : null]),
    }),
    run: async (_, walk) => {
      const world = auditWorld();
      let typed = 0;
      let page = 1;
      const sees = (state: string) => () => {
        const grid = table();
        expect(grid.getAttribute('aria-busy')).toBe(String(state === 'loading'));
        const retry = screen.queryByRole('button', { name: text('load.retry') });
        expect(retry !== null).toBe(state === 'failed');
        if (state === 'failed') expect(screen.getByRole('alert').textContent).toContain(REFUSED);
        const shown = within(grid).queryAllByText('customer.edit');
        expect(shown.length).toBe(state === 'ready' ? 1 : 0);
        if (state === 'ready') {
          expect(screen.getByText(text('table.pageOf', { page, pages: 3 }))).toBeTruthy();
        }
      };
      await walk({
        exec: async (event) => {
          const before = world.endpoints.calls.length;
          switch (event.type as string) {
            case 'SET_FILTERS': {
              typed += 1;
              const actor = `partner${typed}`;
              const box = filterBar().getByRole('textbox', { name: text('audit.actor') });
              await world.user.clear(box);
              await world.user.type(box, actor);
              await world.user.click(
                filterBar().getByRole('button', { name: text('filter.search') }),
              );
              page = 1;
              expect(world.endpoints.calls.slice(before).map((c) => c.input)).toEqual([
                [{ actor, page: 1, limit: 20 }, expect.anything()],
              ]);
              return;
            }
            case 'SET_PAGE':
              await world.user.click(screen.getByRole('button', { name: text('table.next') }));
              page = 2;
              expect((world.endpoints.calls.at(-1)!.input as [{ page: number }])[0].page).toBe(2);
              return;
            case 'RELOAD':
              await world.user.click(screen.getByRole('button', { name: text('load.retry') }));
              expect(world.endpoints.calls.length).toBe(before + 1);
              return;
            case 'xstate.done.actor.fetchPage':
              return world.endpoints.settle('getAuditList', 'done', PAGE);
            case 'xstate.error.actor.fetchPage':
              return world.endpoints.settle('getAuditList', 'error', replyError(REFUSED));
            default:
              throw new Error(`a person cannot cause ${event.type}`);
          }
        },
        sees: Object.fromEntries(['loading', 'ready', 'failed'].map((s) => [s, sees(s)])),
        actual: () => String(world.area().rows.getSnapshot().value),
      });
      world.dispose();
    },
    timeout: 120_000,
  });
});

// ---------------------------------------------------------------------------------------------
// The export: a ticket for the applied filters, then the browser downloads it; one at a time.

const EXPORT: Record<string, string> = {
  'idle EXPORT': 'requesting',
  'requesting done requestTicket': 'downloading',
  'requesting error requestTicket': 'failed',
  'downloading done download': 'done',
  'done EXPORT': 'requesting',
  'failed EXPORT': 'requesting',
};
const EFFECTS: Record<string, string[]> = {
  'requesting done requestTicket': [`download ${TICKET.ticket}`],
};

describe('the export (a partner)', () => {
  uiPaths({
    oracle: { initial: 'idle', transitions: EXPORT, label: settleLabel },
    proposed: getShortestPaths(auditExportMachine, {
      events: (s) =>
        (
          [
            { type: 'EXPORT', query: { action: 'customer.edit' }, count: 45 },
            // DISMISS: no control of the page sends it.
            { type: 'xstate.done.actor.requestTicket', output: TICKET },
            { type: 'xstate.error.actor.requestTicket', error: replyError(REFUSED) },
            { type: 'xstate.done.actor.download' },
          ] as never[]
        ).filter((e) => s.can(e)),
      serializeState: (s, e) => JSON.stringify([s.value, e ? settleLabel(e as never) : null]),
    }),
    run: async (_, walk) => {
      const world = auditWorld();
      await settle(); // the action names arrive
      // The list filtered to one action, loaded: the export asks for the same filters.
      await world.user.selectOptions(
        filterBar().getByRole('combobox', { name: text('audit.action') }),
        'customer.edit',
      );
      await world.user.click(filterBar().getByRole('button', { name: text('filter.search') }));
      await world.endpoints.settle('getAuditList', 'done', PAGE);
      const exportButton = () => screen.getByRole('button', { name: text('audit.export') });
      const sees = (state: string) => () => {
        const busy = state === 'requesting' || state === 'downloading';
        expect(exportButton().getAttribute('aria-busy')).toBe(String(busy));
        expect(exportButton().hasAttribute('disabled')).toBe(busy);
        const says: Record<string, string> = {
          idle: '',
          requesting: text('audit.exportPreparing'),
          downloading: text('audit.exportDownloading', { count: 45 }),
          done: text('audit.exportStarted'),
          failed: REFUSED,
        };
        expect(screen.getByTestId('export-status').textContent).toBe(says[state]);
      };
      await walk({
        exec: async (event) => {
          switch (event.type as string) {
            case 'EXPORT': {
              const before = world.endpoints.calls.length;
              await world.user.click(exportButton());
              const calls = world.endpoints.calls.slice(before);
              expect(calls.map((c) => c.name)).toEqual(['requestAuditExportTicket']);
              expect((calls[0].input as unknown[])[0]).toEqual({ action: 'customer.edit' });
              return;
            }
            case 'xstate.done.actor.requestTicket':
              return world.endpoints.settle('requestAuditExportTicket', 'done', TICKET);
            case 'xstate.error.actor.requestTicket':
              return world.endpoints.settle(
                'requestAuditExportTicket',
                'error',
                replyError(REFUSED),
              );
            case 'xstate.done.actor.download':
              await vi.advanceTimersByTimeAsync(HANDOVER_MS);
              return;
            default:
              throw new Error(`a person cannot cause ${event.type}`);
          }
        },
        sees: Object.fromEntries(['idle', ...Object.values(EXPORT)].map((s) => [s, sees(s)])),
        actual: () => String(world.area().export.getSnapshot().value),
        effects: { take: world.effects.take, expected: EFFECTS },
      });
      world.dispose();
    },
    timeout: 120_000,
  });
});

test('a row opens to its diff; a secret reads only “changed”', async () => {
  const world = auditWorld();
  await world.endpoints.settle('getAuditList', 'done', PAGE);
  const rows = within(table()).getAllByRole('row');
  const secret = rows.find((r) => r.textContent?.includes('customer.edit_account'))!;
  const open = within(secret).getByRole('button', {
    name: text('audit.showChanges', { count: 1 }),
  });
  expect(open.getAttribute('aria-expanded')).toBe('false');
  await world.user.click(open);
  expect(open.getAttribute('aria-expanded')).toBe('true');
  const diff = within(secret).getByTestId('audit-diff');
  expect(within(diff).getByText('password')).toBeTruthy();
  expect(within(diff).getByText(text('audit.changed'))).toBeTruthy();
  const edit = rows.find((r) => r.textContent?.includes('customer.edit') && r !== secret)!;
  await world.user.click(within(edit).getByRole('button', { name: /^Show changes/ }));
  const nameRow = within(within(edit).getByTestId('audit-diff')).getByText('name').closest('tr')!;
  expect(nameRow.textContent).toBe('nameMorning shopEvening shop');
  await world.user.click(within(edit).getByRole('button', { name: text('audit.hideChanges') }));
  expect(within(edit).queryByTestId('audit-diff')).toBeNull();
  world.dispose();
}, 60_000);

test('a record’s link opens its timeline; “show all” goes back to every row', async () => {
  const world = auditWorld('/account/audit?record=user%3A12');
  await settle();
  const filtered = world.endpoints.calls.filter((c) => c.name === 'getAuditList').at(-1)!;
  expect((filtered.input as unknown[])[0]).toEqual({
    resource_type: 'user',
    resource_id: 12,
    page: 1,
    limit: 20,
  });
  await world.endpoints.settle('getAuditList', 'done', PAGE);
  expect(screen.getByTestId('audit-timeline').textContent).toContain(
    text('audit.timelineFor', { type: 'user', id: 12 }),
  );
  expect(
    (filterBar().getByRole('textbox', { name: text('audit.resourceId') }) as HTMLInputElement)
      .value,
  ).toBe('12');
  await world.user.click(screen.getByRole('button', { name: text('audit.showAll') }));
  expect((world.endpoints.calls.at(-1)!.input as unknown[])[0]).toEqual({ page: 1, limit: 20 });
  expect(screen.queryByTestId('audit-timeline')).toBeNull();
  world.dispose();
}, 60_000);

test('a record one of its kind (the platform settings) opens by its type alone', async () => {
  const world = auditWorld('/account/audit?record=platform_config');
  await settle();
  const filtered = world.endpoints.calls.filter((c) => c.name === 'getAuditList').at(-1)!;
  expect((filtered.input as unknown[])[0]).toEqual({
    resource_type: 'platform_config',
    page: 1,
    limit: 20,
  });
  await world.endpoints.settle('getAuditList', 'done', PAGE);
  expect(screen.getByTestId('audit-timeline').textContent).toContain(
    text('audit.timelineForType', { type: 'platform_config' }),
  );
  // A type typed in the filters by hand is a filter, not a record's timeline.
  await world.user.click(screen.getByRole('button', { name: text('audit.showAll') }));
  expect(screen.queryByTestId('audit-timeline')).toBeNull();
  await world.user.type(
    filterBar().getByRole('textbox', { name: text('audit.resourceType') }),
    'domain',
  );
  await world.user.click(filterBar().getByRole('button', { name: text('filter.search') }));
  expect((world.endpoints.calls.at(-1)!.input as unknown[])[0]).toEqual({
    resource_type: 'domain',
    page: 1,
    limit: 20,
  });
  expect(screen.queryByTestId('audit-timeline')).toBeNull();
  world.dispose();
}, 60_000);
