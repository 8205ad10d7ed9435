/**
 * The batch authorisation panel of the accounts page (/matrix-distribution/authorization),
 * driven as a merchant would, against hand-written oracles: the panel's machine
 * (src/machines/matrix-batch-links.ts) only proposes event sequences for each region (making a
 * link, revoking one, its QR code); each step is a click in the rendered page or a fake endpoint
 * settling, and what the person sees after it is checked from the tables below (MAKE, REVOKE,
 * QR), never from the machine. Beside them: the list's states, uses and expiry, copying a link's
 * address, and the form's own checks.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { BatchLink } from '../../src/api/contract/matrix';
import { provideArea } from '../../src/app/actors/areas';
import { matrixArea } from '../../src/app/actors/matrix';
import { matrixBatchLinksArea } from '../../src/app/actors/matrix-batch-links';
import type { MessageId } from '../../src/i18n/en-US';
import { fill, text } from './messages';
import {
  matrixBatchLinksMachine,
  type MatrixBatchLinksEvent,
} from '../../src/machines/matrix-batch-links';
import AuthorizationPage from '../../src/views/matrix/authorization-page';
import { replyError } from './fixtures';
import { fakeEndpoints, person, settle, uiPaths, viewPathHooks, type EventPath } from './ui-paths';
import { shopAuth } from './video-task-fixtures';
import { appActors, isOpen, renderAt } from './view-harness';

const URL_OF = (id: number) =>
  `https://console.example/batchAuthorization?token=tok-${id}-abcdefghij`;
const link = (over: Partial<BatchLink> & Pick<BatchLink, 'id'>): BatchLink => ({
  platform: 'douyin',
  group_id: null,
  url: URL_OF(over.id),
  expires_at: Date.UTC(2026, 11, 3, 9, 30),
  max_uses: 10,
  uses: 0,
  state: 'valid',
  created_at: 0,
  ...over,
});
const VALID = link({ id: 7 });
const ROWS: BatchLink[] = [
  VALID,
  link({ id: 6, state: 'expired', max_uses: null, uses: 3 }),
  link({ id: 5, state: 'revoked', uses: 1 }),
  link({ id: 4, state: 'used_up', max_uses: 2, uses: 2 }),
];
const MADE = { id: 8, url: URL_OF(8), expires_at: Date.UTC(2026, 11, 4) };
const REFUSAL = 'Refused by the server';
const PNG = (url: string) => `data:image/png;base64,${btoa(url)}`;

viewPathHooks();

/** A merchant on the accounts page with fake endpoints of both areas. */
async function setup(rows: BatchLink[] = ROWS) {
  const endpoints = fakeEndpoints();
  const actors = appActors({ auth: shopAuth() });
  const never = () => new Promise<never>(() => {});
  const effects: string[] = [];
  provideArea(actors, matrixArea, {
    getAuthUrl: never,
    getAccounts: async () => ({ list: [], total: 0 }),
    refreshAccount: never,
    deleteAccounts: never,
    moveAccounts: never,
    getGroups: async () => ({ list: [{ id: 5, name: 'Brand', count: 0 }], ungrouped: 0 }),
    addGroup: never,
    editGroup: never,
    deleteGroup: never,
    navigate: () => {},
  });
  provideArea(actors, matrixBatchLinksArea, {
    addLink: endpoints.endpoint('addLink') as never,
    getLinks: async (query) => {
      effects.push(`list ${query.page}`);
      return { list: rows, total: rows.length };
    },
    revokeLink: endpoints.endpoint('revokeLink') as never,
    drawQr: endpoints.endpoint('drawQr') as never,
    download: (href, fileName) => effects.push(`download ${fileName} ${href}`),
  });
  renderAt(actors, <AuthorizationPage />, '/matrix-distribution/authorization');
  const user = person();
  await vi.waitFor(() => screen.getByRole('button', { name: text('matrix.batchOpen') }), {
    timeout: 5000,
  });
  await settle();
  const dialogs = () => screen.queryAllByRole('dialog').filter(isOpen);
  const panel = () => screen.queryByTestId('batch-links-panel');
  const inPanel = () => within(panel()!);
  const revokeDialog = () =>
    dialogs().find((d) => d !== panel() && !panel()?.contains(d) && d.textContent?.includes('#')) ??
    null;
  const qr = () => screen.queryByTestId('batch-link-qr');
  return {
    endpoints,
    user,
    panel,
    inPanel,
    revokeDialog,
    qr,
    take: () => effects.splice(0),
    open: () => user.click(screen.getByRole('button', { name: text('matrix.batchOpen') })),
    makeButton: () =>
      inPanel().getByRole('button', { name: text('matrix.batchMake') }) as HTMLButtonElement,
    dispose: () => actors.dispose(),
  };
}
type World = Awaited<ReturnType<typeof setup>>;
type Event = MatrixBatchLinksEvent;

const label = (e: Event) => e.type.replace(/^xstate\./, '').replace('.actor', '');

/** The machine's shortest paths over these events, states seen through `serialize`. */
function proposed(
  events: Event[],
  can: (s: ReturnType<typeof matrixBatchLinksMachine.resolveState>, e: Event) => boolean,
  serialize: (s: ReturnType<typeof matrixBatchLinksMachine.resolveState>) => unknown,
): EventPath<Event>[] {
  const machine = matrixBatchLinksMachine.provide({ actions: { download: () => {} } });
  return getShortestPaths(machine, {
    events: (s) => events.filter((e) => can(s, e) && s.can(e as never)),
    serializeState: (s, e) => JSON.stringify([serialize(s), e ? label(e as Event) : '']),
  }) as unknown as EventPath<Event>[];
}

const region = (s: { value: unknown }, name: 'make' | 'revoke' | 'qr') =>
  s.value === 'closed' ? 'closed' : (s.value as { open: Record<string, string> }).open[name];

// ---------------------------------------------------------------------------------------------
// Making a link: "Batch authorisation" opens the panel; "Make link" sends the form (48 hours, no
// limit, ungrouped); a refusal shows in the form and "Make link" tries again; a saved link's QR
// code is drawn and the list is loaded again. Closing the panel leaves it all.

const MAKE: Record<string, string> = {
  'closed OPEN': 'open',
  'open CLOSE': 'closed',
  'open MAKE': 'saving',
  'saving CLOSE': 'closed',
  'saving done.addLink': 'open',
  'saving error.addLink': 'refused',
  'refused MAKE': 'saving',
  'refused CLOSE': 'closed',
};

describe('making a link (panel machine, make region)', () => {
  let w: World;
  const sees: Record<string, () => void> = {
    closed: () => expect(w.panel()).toBeNull(),
    open: () => {
      w.inPanel().getByRole('heading', { name: text('matrix.batchTitle') });
      expect(w.makeButton().getAttribute('aria-busy')).not.toBe('true');
      expect(w.inPanel().queryByRole('alert')).toBeNull();
    },
    saving: () => expect(w.makeButton().getAttribute('aria-busy')).toBe('true'),
    refused: () => {
      expect(w.inPanel().getByRole('alert').textContent).toContain(REFUSAL);
      expect(w.makeButton().getAttribute('aria-busy')).not.toBe('true');
    },
  };
  const exec = async (event: Event) => {
    switch (label(event)) {
      case 'OPEN':
        return w.open();
      case 'CLOSE':
        return w.user.click(w.inPanel().getByRole('button', { name: text('matrix.batchClose') }));
      case 'MAKE': {
        const hours = w.inPanel().getByRole('textbox', { name: text('matrix.batchHours') });
        await w.user.clear(hours);
        await w.user.type(hours, '48');
        await w.user.click(w.makeButton());
        expect(w.endpoints.calls.at(-1)).toEqual({
          name: 'addLink',
          input: [{ platform: 'douyin', expires_hours: 48 }, { quiet: true }],
        });
        return;
      }
      case 'done.addLink':
        await w.endpoints.settle('addLink', 'done', MADE);
        // The new link's QR code is being drawn, its address shown.
        expect(within(w.qr()!).getByText(MADE.url)).toBeTruthy();
        expect(w.endpoints.calls.at(-1)).toEqual({ name: 'drawQr', input: [MADE.url] });
        return;
      case 'error.addLink':
        return w.endpoints.settle('addLink', 'error', replyError(REFUSAL));
      default:
        throw new Error(`no person's action for ${event.type}`);
    }
  };
  const paths = proposed(
    [
      { type: 'OPEN' },
      { type: 'CLOSE' },
      { type: 'MAKE', request: { expiresHours: 48, maxUses: null, groupId: null } },
      { type: 'xstate.done.actor.addLink', output: MADE } as never,
      { type: 'xstate.error.actor.addLink', error: replyError(REFUSAL) } as never,
    ],
    () => true,
    (s) => region(s, 'make'),
  );
  const refusedThenSaved: EventPath<Event> = {
    steps: [
      { type: 'xstate.init' },
      { type: 'OPEN' },
      { type: 'MAKE' },
      { type: 'xstate.error.actor.addLink' },
      { type: 'MAKE' },
      { type: 'xstate.done.actor.addLink' },
    ].map((event) => ({ event: event as Event })),
  };
  uiPaths<Event>({
    oracle: { initial: 'closed', transitions: MAKE, label },
    proposed: paths,
    more: [refusedThenSaved],
    timeout: 20_000,
    run: async (_path, walk) => {
      w = await setup();
      await walk({
        sees,
        exec,
        effects: {
          take: w.take,
          // The list loads when the panel first opens, and again after a link is saved.
          expected: { 'closed OPEN': ['list 1'], 'saving done.addLink': ['list 1'] },
        },
      });
      w.dispose();
    },
  });
});

// ---------------------------------------------------------------------------------------------
// Revoking link #7 (valid): its "Revoke" asks first; "Revoke" in the dialog sends the call, a
// refusal shows in the dialog and "Revoke" tries again; Cancel closes it. A revoked link reloads
// the list.

const REVOKE: Record<string, string> = {
  'closed OPEN': 'idle',
  'idle ASK_REVOKE': 'confirming',
  'confirming CANCEL_REVOKE': 'idle',
  'confirming CONFIRM_REVOKE': 'revoking',
  'revoking done.revoke': 'idle',
  'revoking error.revoke': 'failed',
  'failed CONFIRM_REVOKE': 'revoking',
  'failed CANCEL_REVOKE': 'idle',
};

describe('revoking a link (panel machine, revoke region)', () => {
  let w: World;
  const dialog = () => w.revokeDialog();
  const confirm = () =>
    within(dialog()!).getByRole('button', { name: text('matrix.batchRevoke') }) as HTMLElement;
  const sees: Record<string, () => void> = {
    closed: () => expect(w.panel()).toBeNull(),
    idle: () => {
      expect(dialog()).toBeNull();
      w.inPanel().getByRole('button', { name: fill('matrix.batchRevokeOf', { id: 7 }) });
    },
    confirming: () => {
      within(dialog()!).getByRole('heading', {
        name: fill('matrix.batchRevokeTitle', { id: 7 }),
      });
      expect(confirm().getAttribute('aria-busy')).not.toBe('true');
      expect(within(dialog()!).queryByRole('alert')).toBeNull();
    },
    revoking: () => expect(confirm().getAttribute('aria-busy')).toBe('true'),
    failed: () => {
      expect(within(dialog()!).getByRole('alert').textContent).toContain(REFUSAL);
      expect(confirm().getAttribute('aria-busy')).not.toBe('true');
    },
  };
  const exec = async (event: Event) => {
    switch (label(event)) {
      case 'OPEN':
        return w.open();
      case 'ASK_REVOKE':
        return w.user.click(
          w.inPanel().getByRole('button', { name: fill('matrix.batchRevokeOf', { id: 7 }) }),
        );
      case 'CANCEL_REVOKE':
        return w.user.click(within(dialog()!).getByRole('button', { name: text('form.cancel') }));
      case 'CONFIRM_REVOKE':
        await w.user.click(confirm());
        expect(w.endpoints.calls.at(-1)).toEqual({
          name: 'revokeLink',
          input: [{ id: 7 }, { quiet: true }],
        });
        return;
      case 'done.revoke':
        return w.endpoints.settle('revokeLink', 'done', null);
      case 'error.revoke':
        return w.endpoints.settle('revokeLink', 'error', replyError(REFUSAL));
      default:
        throw new Error(`no person's action for ${event.type}`);
    }
  };
  uiPaths<Event>({
    oracle: { initial: 'closed', transitions: REVOKE, label },
    proposed: proposed(
      [
        { type: 'OPEN' },
        { type: 'ASK_REVOKE', link: VALID },
        { type: 'CONFIRM_REVOKE' },
        { type: 'CANCEL_REVOKE' },
        { type: 'xstate.done.actor.revoke', output: null } as never,
        { type: 'xstate.error.actor.revoke', error: replyError(REFUSAL) } as never,
      ],
      () => true,
      (s) => region(s, 'revoke'),
    ),
    timeout: 20_000,
    run: async (_path, walk) => {
      w = await setup();
      await walk({
        sees,
        exec,
        effects: {
          take: w.take,
          expected: { 'closed OPEN': ['list 1'], 'revoking done.revoke': ['list 1'] },
        },
      });
      w.dispose();
    },
  });
});

// ---------------------------------------------------------------------------------------------
// A link's QR code: its "QR code" button draws it (a spinner meanwhile), then shows the image
// (alt text: the link's address) with "Download PNG", which saves the PNG; "Hide QR code" hides
// it; a drawing that fails says so.

const QR: Record<string, string> = {
  'closed OPEN': 'none',
  'none SHOW_QR': 'drawing',
  'drawing done.drawQr': 'shown',
  'drawing error.drawQr': 'failed',
  'drawing HIDE_QR': 'none',
  'shown DOWNLOAD': 'shown',
  'shown HIDE_QR': 'none',
  'shown SHOW_QR': 'drawing',
  'failed HIDE_QR': 'none',
  'failed SHOW_QR': 'drawing',
};

describe('a link’s QR code (panel machine, qr region)', () => {
  let w: World;
  const image = () => within(w.qr()!).queryByRole('img');
  const sees: Record<string, () => void> = {
    closed: () => expect(w.panel()).toBeNull(),
    none: () => expect(w.qr()).toBeNull(),
    drawing: () => {
      within(w.qr()!).getByRole('status', { name: text('matrix.batchDrawing') });
      expect(image()).toBeNull();
    },
    shown: () => {
      const img = image()!;
      expect(img.getAttribute('alt')).toBe(fill('matrix.batchQrAlt', { url: VALID.url }));
      expect(img.getAttribute('src')).toBe(PNG(VALID.url));
      within(w.qr()!).getByRole('button', { name: text('matrix.batchDownload') });
    },
    failed: () => {
      expect(within(w.qr()!).getByRole('alert').textContent).toContain(
        text('matrix.batchQrFailed'),
      );
      expect(image()).toBeNull();
    },
  };
  const exec = async (event: Event) => {
    switch (label(event)) {
      case 'OPEN':
        return w.open();
      case 'SHOW_QR':
        await w.user.click(
          w.inPanel().getByRole('button', { name: fill('matrix.batchQrOf', { id: 7 }) }),
        );
        expect(w.endpoints.calls.at(-1)).toEqual({ name: 'drawQr', input: [VALID.url] });
        return;
      case 'done.drawQr':
        return w.endpoints.settle('drawQr', 'done', PNG(VALID.url));
      case 'error.drawQr':
        return w.endpoints.settle('drawQr', 'error', new Error('no canvas'));
      case 'DOWNLOAD':
        return w.user.click(
          within(w.qr()!).getByRole('button', { name: text('matrix.batchDownload') }),
        );
      case 'HIDE_QR':
        return w.user.click(
          within(w.qr()!).getByRole('button', { name: text('matrix.batchHideQr') }),
        );
      default:
        throw new Error(`no person's action for ${event.type}`);
    }
  };
  uiPaths<Event>({
    oracle: { initial: 'closed', transitions: QR, label },
    proposed: proposed(
      [
        { type: 'OPEN' },
        { type: 'SHOW_QR', link: { id: 7, url: VALID.url } },
        { type: 'xstate.done.actor.drawQr', output: PNG(VALID.url) } as never,
        { type: 'xstate.error.actor.drawQr', error: new Error('no canvas') } as never,
        { type: 'DOWNLOAD' },
        { type: 'HIDE_QR' },
      ],
      // A second SHOW_QR while drawing draws again: the same state to a person.
      (s, e) => !(e.type === 'SHOW_QR' && region(s, 'qr') === 'drawing'),
      (s) => region(s, 'qr'),
    ),
    timeout: 20_000,
    run: async (_path, walk) => {
      w = await setup();
      await walk({
        sees,
        exec,
        effects: {
          take: w.take,
          expected: {
            'closed OPEN': ['list 1'],
            'shown DOWNLOAD': [`download batch-authorization-7.png ${PNG(VALID.url)}`],
          },
        },
      });
      w.dispose();
    },
  });
});

// ---------------------------------------------------------------------------------------------

test('the list: each state’s badge, uses of the most or no limit, the expiry in the locale', async () => {
  const w = await setup();
  await w.open();
  const table = w.inPanel().getByRole('table', { name: text('matrix.batchLinks') });
  const row = (id: number) =>
    within(table).getByText(fill('matrix.batchLinkNo', { id })).closest('tr')!;
  const expiry = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
  const cases: [number, MessageId, string, boolean][] = [
    [7, 'matrix.batchStateValid', '0 / 10', true],
    [6, 'matrix.batchStateExpired', '3 / no limit', false],
    [5, 'matrix.batchStateRevoked', '1 / 10', false],
    [4, 'matrix.batchStateUsedUp', '2 / 2', false],
  ];
  for (const [id, state, uses, revocable] of cases) {
    const r = within(row(id));
    r.getByText(text(state));
    r.getByText(uses);
    r.getByText(expiry.format(VALID.expires_at));
    r.getByRole('button', { name: fill('matrix.batchQrOf', { id }) });
    expect(r.queryByRole('button', { name: fill('matrix.batchRevokeOf', { id }) }) !== null).toBe(
      revocable,
    );
  }
  w.dispose();
});

test('copy puts the link’s address on the clipboard', async () => {
  const w = await setup();
  await w.open();
  const writeText = vi.fn(async () => {});
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  await w.user.click(
    w.inPanel().getByRole('button', { name: fill('matrix.batchCopyOf', { id: 6 }) }),
  );
  expect(writeText).toHaveBeenCalledWith(URL_OF(6));
  w.dispose();
});

test('the form checks hours and uses with the contract, then sends the uses and the group', async () => {
  const w = await setup();
  await w.open();
  const p = w.inPanel();
  const hours = p.getByRole('textbox', { name: text('matrix.batchHours') });
  await w.user.clear(hours);
  await w.user.type(hours, '200');
  await w.user.click(p.getByRole('checkbox', { name: text('matrix.batchUnlimited') }));
  await settle();
  const uses = p.getByRole('textbox', { name: text('matrix.batchMaxUses') });
  await w.user.clear(uses);
  await w.user.type(uses, '2000');
  await w.user.click(w.makeButton());
  p.getByText(text('validation.batchLinkHours'));
  p.getByText(text('validation.batchLinkUses'));
  expect(w.endpoints.calls).toEqual([]);
  await w.user.clear(hours);
  await w.user.type(hours, '12');
  await w.user.clear(uses);
  await w.user.type(uses, '5');
  await w.user.selectOptions(p.getByRole('combobox', { name: text('matrix.batchGroup') }), '5');
  await w.user.click(w.makeButton());
  expect(p.queryByText(text('validation.batchLinkHours'))).toBeNull();
  expect(w.endpoints.calls).toEqual([
    {
      name: 'addLink',
      input: [{ platform: 'douyin', expires_hours: 12, max_uses: 5, group_id: 5 }, { quiet: true }],
    },
  ]);
  w.dispose();
});

test('the make form opens fresh: what was typed and refused before the panel closed is gone', async () => {
  const w = await setup();
  await w.open();
  let p = w.inPanel();
  const hours = () =>
    p.getByRole('textbox', { name: text('matrix.batchHours') }) as HTMLInputElement;
  await w.user.clear(hours());
  await w.user.type(hours(), '500');
  await w.user.click(w.makeButton());
  p.getByText(text('validation.batchLinkHours'));
  await w.user.click(p.getByRole('button', { name: text('matrix.batchClose') }));
  await settle();
  await w.open();
  p = w.inPanel();
  expect(hours().value).toBe('24');
  expect(p.queryByText(text('validation.batchLinkHours'))).toBeNull();
  expect(w.endpoints.calls.filter((c) => c.name === 'addLink')).toEqual([]);
  w.dispose();
});
