/**
 * The customer dialog machine (src/machines/customers/customer-dialog.ts) through the real
 * /promotion/merchant page of a partner, against a hand-written oracle: the
 * machine's shortest paths only propose event sequences; each step is a click or typing on the
 * page (Add merchant, a row's Actions menu, the enable switch, the dialog's buttons) or a fake
 * endpoint of the customers area settling; the state that follows is looked up in TABLE below and
 * what a person sees there is asserted: the dialog, its title, the busy submit button, the
 * server's refusal with Retry and Back, and after a save the list loaded afresh (the area's
 * reload, an event between its actors).
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { CustomerRow } from '../../src/api/contract/customers';
import { provideArea } from '../../src/app/actors/areas';
import { customersArea, type CustomersEndpoints } from '../../src/app/actors/customers';
import { moneyArea } from '../../src/app/actors/money';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import {
  createCustomerDialogMachine,
  type CustomerDialogEvent,
} from '../../src/machines/customers/customer-dialog';
import MerchantPage from '../../src/views/promotion/merchant-page';
import { replyError, userFixture } from './fixtures';
import { fakeMoneyEndpoints } from './money-paths';
import { type EventPath, fakeEndpoints, person, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId) => enUS[id];
const fill = (t: string, values: Record<string, string>) =>
  t.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

const ROW: CustomerRow = {
  id: 7,
  username: 'shop7',
  name: 'Morning shop',
  nickname: '',
  mobile: '',
  email: '',
  user_type: 2,
  pid: 2,
  parent_name: 'Nebula',
  service_id: 2,
  service_name: 'Nebula',
  agent_id: null,
  agent_name: '',
  status: 1,
  money: '0.00',
  digital_man_seconds: 0,
  voice_clone_count: 0,
  image_clone_count: 0,
  merchant_count: 0,
  merchant_count_limit: -1,
  child_count: 0,
  service_prefix_no: '',
  service_type: 0,
  can_transfer_money: 0,
  can_transfer_digital_man: 0,
  can_transfer_digital_voice: 1,
  show_clip_menu: 1,
  open_oem: 0,
  digital_man_money_exchange_num: '',
  digital_voice_money_exchange_num: '',
  mini_appid: '',
  expire_at: null,
  remark: '',
  created_at: 0,
  last_login_at: null,
};
const ROW_NAME = 'Morning shop (shop7)';
/** The server's refusal (a human sentence, shown as it is). */
const REFUSAL = 'Merchant limit reached (3)';

// ---------------------------------------------------------------------------------------------
// The oracle, written from the spec (customer dialogs: docs/domain.md §1, decisions "customers
// pages"). `new` / `row`: the dialog is about a new customer or about the row.

const TABLE: Record<string, string> = {
  'closed OPEN new': 'editing new',
  'closed OPEN row': 'editing row',
  'editing new SUBMIT': 'submitting new',
  'editing row SUBMIT': 'submitting row',
  'editing new CLOSE': 'closed',
  'editing row CLOSE': 'closed',
  // Saved: the dialog closes and the page's list loads afresh.
  'submitting new done.actor.submit': 'saved',
  'submitting row done.actor.submit': 'saved',
  // Refused: the server's sentence, the values kept.
  'submitting new error.actor.submit': 'failed new',
  'submitting row error.actor.submit': 'failed row',
  'failed new RETRY': 'submitting new',
  'failed row RETRY': 'submitting row',
  'failed new BACK': 'editing new',
  'failed row BACK': 'editing row',
  'failed new CLOSE': 'closed',
  'failed row CLOSE': 'closed',
  'saved OPEN new': 'editing new',
  'saved OPEN row': 'editing row',
};

// ---------------------------------------------------------------------------------------------

type Event = CustomerDialogEvent<CustomerRow, unknown>;
const label = (e: Event) =>
  e.type === 'OPEN' ? `OPEN ${e.target ? 'row' : 'new'}` : e.type.replace(/^xstate\./, '');

/** A dialog of the page: how a person opens and submits it and which endpoint saves it. */
interface DialogUnderTest {
  name: string;
  /** The title and submit button for a new customer (form only) or the row. */
  title: (target: 'new' | 'row') => string;
  submit: (target: 'new' | 'row') => string;
  endpoint: (target: 'new' | 'row') => keyof CustomersEndpoints;
  /** Row dialogs are never opened for "new". */
  rowOnly: boolean;
  /** How a person opens it about the row (the Actions menu item, or the enable switch). */
  menuItem?: MessageId;
}

const DIALOGS: DialogUnderTest[] = [
  {
    name: 'create / edit form',
    title: (t) =>
      t === 'new'
        ? text('customers.addMerchant')
        : fill(text('customers.editTitle'), { name: ROW_NAME }),
    submit: (t) => text(t === 'new' ? 'customers.create' : 'form.save'),
    endpoint: (t) => (t === 'new' ? 'addByService' : 'editByService'),
    rowOnly: false,
    menuItem: 'customers.edit',
  },
  {
    name: 'reset password',
    title: () => fill(text('customers.resetTitle'), { name: ROW_NAME }),
    submit: () => text('customers.resetPassword'),
    endpoint: () => 'editAccount',
    rowOnly: true,
    menuItem: 'customers.resetPassword',
  },
  {
    name: 'disable (the enable switch)',
    title: () => fill(text('customers.disableTitle'), { name: ROW_NAME }),
    submit: () => text('customers.disable'),
    endpoint: () => 'editAccount',
    rowOnly: true,
  },
  {
    name: 'transfer permissions',
    title: () => fill(text('customers.permissionsTitle'), { name: ROW_NAME }),
    submit: () => text('form.save'),
    endpoint: () => 'editTransferConfig',
    rowOnly: true,
    menuItem: 'customers.transferPermissions',
  },
  {
    name: 'delete confirmation',
    title: () => fill(text('customers.deleteTitle'), { name: ROW_NAME }),
    submit: () => text('customers.delete'),
    endpoint: () => 'deleteCustomer',
    rowOnly: true,
    menuItem: 'customers.delete',
  },
];

viewPathHooks();

/**
 * The fields typed key by key so far in this file. A keystroke re-renders the dialog (≈ 0.25 s of
 * CPU in jsdom): each dialog's field is typed key by key by the first path that fills it (and
 * every field of the create form by "the form checks like the server" below); later paths paste
 * the value, one input event through the same change handler, and check the same states.
 */
const TYPED_ONCE = new Set<string>();

/** A partner (it creates merchants, holds only the money transfer flag) on /promotion/merchant. */
async function setup() {
  const endpoints = fakeEndpoints();
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () =>
          userFixture({
            accountId: 2,
            user_type: 1,
            username: 'nebula',
            name: 'Nebula',
            can_transfer_digital_man: 0,
            can_transfer_digital_voice: 0,
          }),
        ),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  let listLoads = 0;
  const never = () => new Promise<never>(() => {});
  provideArea(actors, customersArea, {
    getCustomers: async () => {
      listLoads += 1;
      return { list: [ROW], total: 1 };
    },
    addCustomer: never,
    editCustomer: never,
    addByService: endpoints.endpoint('addByService') as never,
    editByService: endpoints.endpoint('editByService') as never,
    editAccount: endpoints.endpoint('editAccount') as never,
    editTransferConfig: endpoints.endpoint('editTransferConfig') as never,
    deleteCustomer: endpoints.endpoint('deleteCustomer') as never,
    getUsedPrefixes: async () => [],
    getPlatformUsers: async () => ({ list: [], total: 0 }),
  });
  provideArea(actors, moneyArea, fakeMoneyEndpoints());
  renderAt(actors, <MerchantPage />, '/promotion/merchant');
  const user = person();
  await vi.waitFor(() => screen.getByRole('cell', { name: 'shop7' }), { timeout: 5000 });
  const dialog = () => {
    const open = screen.queryAllByRole('dialog').filter(isOpen);
    expect(open.length).toBeLessThanOrEqual(1);
    return open[0] ?? null;
  };
  /** Chooses an item of the row's Actions menu by keyboard (zag ignores pointer on items). */
  const rowAction = async (item: MessageId) => {
    screen
      .getByRole('button', { name: fill(text('customers.actionsOf'), { name: 'shop7' }) })
      .focus();
    await user.keyboard('{Enter}');
    await vi.advanceTimersByTimeAsync(100);
    for (let i = 0; i < 8; i++) {
      const highlighted = screen
        .queryAllByRole('menuitem')
        .find((el) => el.hasAttribute('data-highlighted'));
      if (highlighted?.textContent === text(item)) break;
      await user.keyboard('{ArrowDown}');
      await vi.advanceTimersByTimeAsync(100);
    }
    const highlighted = screen
      .getAllByRole('menuitem')
      .find((el) => el.hasAttribute('data-highlighted'));
    expect(highlighted?.textContent).toBe(text(item));
    await user.keyboard('{Enter}');
  };
  const dispose = () => actors.dispose();
  return { endpoints, user, dialog, rowAction, loads: () => listLoads, dispose };
}

type World = Awaited<ReturnType<typeof setup>>;

/**
 * The form (new and row): every shortest path, each transition the last step of one. The row
 * dialogs show the same machine in the same frame: one path each through open, a refusal, Back,
 * a second submit and the save (their own open and submit wiring), to keep the file's run short.
 */
function pathsFor(d: DialogUnderTest) {
  const row = { type: 'OPEN', target: ROW } as Event;
  const submit = { type: 'SUBMIT', payload: {} } as Event;
  const done = { type: 'xstate.done.actor.submit', output: ROW } as unknown as Event;
  const error = {
    type: 'xstate.error.actor.submit',
    error: replyError(REFUSAL),
  } as unknown as Event;
  const table = d.rowOnly
    ? Object.fromEntries(Object.entries(TABLE).filter(([key]) => !key.includes(' new')))
    : TABLE;
  if (d.rowOnly) {
    const events = [row, submit, error, { type: 'BACK' } as Event, submit, done];
    return {
      table,
      proposed: [],
      more: [
        {
          steps: [
            { event: { type: 'xstate.init' } as unknown as Event },
            ...events.map((event) => ({ event })),
          ],
        },
      ],
    };
  }
  const machine = createCustomerDialogMachine<CustomerRow, unknown>('customerDialog');
  const events: Event[] = [
    row,
    { type: 'OPEN', target: null },
    submit,
    { type: 'RETRY' },
    { type: 'BACK' },
    { type: 'CLOSE' },
    done,
    error,
  ];
  const paths = getShortestPaths(machine, {
    // Only what the state handles: an ignored event would look like another way in.
    events: (s) => events.filter((e) => s.can(e as never)),
    // The event that led here too: every transition is then the last step of some path.
    serializeState: (s, e) =>
      JSON.stringify([s.value, s.context.target ? 'row' : 'new', (e as { type?: string })?.type]),
  });
  return { table, proposed: paths as EventPath<Event>[], more: [] };
}

describe.each(DIALOGS)('$name', (d) => {
  const { table, proposed, more } = pathsFor(d);

  const sees = (world: World, saves: () => number) => {
    const target = (state: string) => (state.endsWith(' new') ? 'new' : 'row');
    const check = (state: string) => async () => {
      // The list was loaded once, and again after each save (the area's reload).
      expect(world.loads()).toBe(1 + saves());
      const dialog = world.dialog();
      if (state === 'closed' || state === 'saved') {
        expect(dialog).toBeNull();
        return;
      }
      expect(dialog).not.toBeNull();
      const w = within(dialog!);
      w.getByRole('heading', { name: d.title(target(state)) });
      if (state.startsWith('failed')) {
        expect(w.getByRole('alert').textContent).toContain(REFUSAL);
        w.getByRole('button', { name: text('customers.retry') });
        w.getByRole('button', { name: text('customers.back') });
        expect(w.queryByRole('button', { name: d.submit(target(state)) })).toBeNull();
        return;
      }
      expect(w.queryByRole('alert')).toBeNull();
      const busy = state.startsWith('submitting');
      const submit = w.getByRole('button', { name: d.submit(target(state)) });
      expect(submit.getAttribute('aria-busy')).toBe(String(busy));
      const cancel = w.getByRole('button', { name: text('form.cancel') }) as HTMLButtonElement;
      expect(cancel.disabled).toBe(busy);
    };
    const states = ['closed', ...new Set(Object.values(table))];
    return Object.fromEntries(states.map((s) => [s, check(s)]));
  };

  uiPaths({
    oracle: { initial: 'closed', transitions: table, label },
    proposed,
    more,
    everyRow: !d.rowOnly,
    run: async (_, walk) => {
      const world = await setup();
      let saves = 0;
      let about: 'new' | 'row' = 'row';
      const click = async (name: string) =>
        world.user.click(within(world.dialog()!).getByRole('button', { name }));
      await walk({
        sees: sees(world, () => saves),
        exec: async (event) => {
          switch (event.type) {
            case 'OPEN':
              about = event.target ? 'row' : 'new';
              if (!event.target) {
                return world.user.click(
                  screen.getByRole('button', { name: text('customers.addMerchant') }),
                );
              }
              if (d.menuItem) return world.rowAction(d.menuItem);
              return world.user.click(
                screen.getByRole('checkbox', {
                  name: fill(text('customers.enabledOf'), { name: ROW_NAME }),
                }),
              );
            case 'SUBMIT': {
              const w = within(world.dialog()!);
              const typeIn = async (name: RegExp, value: string) => {
                const input = w.getByLabelText(name, { selector: 'input' }) as HTMLInputElement;
                if (input.value) return;
                const key = `${d.name}: ${String(name)}`;
                if (TYPED_ONCE.has(key)) {
                  input.focus();
                  return world.user.paste(value);
                }
                TYPED_ONCE.add(key);
                await world.user.type(input, value);
              };
              if (d.name.startsWith('create') && about === 'new') {
                await typeIn(/^Account/, 'shop8');
                await typeIn(/^Password/, 'Fresh@2027x');
              }
              if (d.name === 'reset password') await typeIn(/^New password/, 'Fresh@2027x');
              return click(d.submit(about));
            }
            case 'RETRY':
              return click(text('customers.retry'));
            case 'BACK':
              return click(text('customers.back'));
            case 'CLOSE':
              // From the form Cancel; from a refusal the dialog's close button.
              return world.dialog()!.querySelector('[role="alert"]')
                ? click(text('form.close'))
                : click(text('form.cancel'));
            default: {
              const done = (event as { type: string }).type.includes('.done.');
              if (done) saves += 1;
              return world.endpoints.settle(
                d.endpoint(about),
                done ? 'done' : 'error',
                done ? ROW : replyError(REFUSAL),
              );
            }
          }
        },
      });
      world.dispose();
    },
    timeout: 120_000,
  });
});

describe('the forms', () => {
  test('the form checks like the server before it calls anything', async () => {
    const world = await setup();
    await world.user.click(screen.getByRole('button', { name: text('customers.addMerchant') }));
    const w = within(world.dialog()!);
    await world.user.click(w.getByRole('button', { name: text('customers.create') }));
    w.getByText(text('validation.usernameRequired'));
    expect(world.endpoints.calls).toEqual([]);
    // What a person typed is what the partner's own endpoint is given.
    await world.user.type(w.getByLabelText(/^Account/, { selector: 'input' }), 'shop8');
    await world.user.type(w.getByLabelText(/^Password/, { selector: 'input' }), 'Fresh@2027x');
    await world.user.type(w.getByLabelText(/^Name/, { selector: 'input' }), 'Evening shop');
    await world.user.click(w.getByRole('button', { name: text('customers.create') }));
    expect(world.endpoints.calls).toEqual([
      {
        name: 'addByService',
        input: [{ user_type: 2, username: 'shop8', password: 'Fresh@2027x', name: 'Evening shop' }],
      },
    ]);
    world.dispose();
  }, 120_000);

  test('after a refusal, typing in a field goes back to the form with the change kept', async () => {
    const world = await setup();
    await world.user.click(screen.getByRole('button', { name: text('customers.addMerchant') }));
    const w = within(world.dialog()!);
    const field = (name: RegExp) =>
      w.getByLabelText(name, { selector: 'input' }) as HTMLInputElement;
    field(/^Account/).focus();
    await world.user.paste('shop8');
    field(/^Password/).focus();
    await world.user.paste('Fresh@2027x');
    await world.user.click(w.getByRole('button', { name: text('customers.create') }));
    await world.endpoints.settle('addByService', 'error', replyError(REFUSAL));
    expect(w.getByRole('alert').textContent).toContain(REFUSAL);
    // The person corrects the account: the keystrokes land, the sentence goes, Create is back.
    await world.user.type(field(/^Account/), 'x');
    expect(field(/^Account/).value).toBe('shop8x');
    expect(w.queryByRole('alert')).toBeNull();
    await world.user.click(w.getByRole('button', { name: text('customers.create') }));
    expect(
      world.endpoints.calls.map((c) => (c.input as [{ username: string }])[0].username),
    ).toEqual(['shop8', 'shop8x']);
    world.dispose();
  }, 120_000);

  test('a partner may switch off any transfer flag but switch on only the ones it holds', async () => {
    const world = await setup();
    await world.rowAction('customers.transferPermissions');
    const w = within(world.dialog()!);
    const flag = (id: 'customers.canMoney' | 'customers.canDigitalMan' | 'customers.canVoice') =>
      w.getByRole('checkbox', { name: fill(text(id), { moneyName: 'Coins' }) }) as HTMLInputElement;
    // The partner holds the money flag only; the row may already transfer voice clones.
    const state = (id: Parameters<typeof flag>[0]) => [flag(id).disabled, flag(id).checked];
    expect(state('customers.canMoney')).toEqual([false, false]);
    expect(state('customers.canDigitalMan')).toEqual([true, false]);
    expect(state('customers.canVoice')).toEqual([false, true]);
    expect(w.getAllByText(text('customers.notHeld'))).toHaveLength(2);
    // Switching the held flag on and the unheld one off saves exactly that, for the row.
    await world.user.click(flag('customers.canMoney'));
    await world.user.click(flag('customers.canVoice'));
    await world.user.click(w.getByRole('button', { name: text('form.save') }));
    expect(world.endpoints.calls).toEqual([
      {
        name: 'editTransferConfig',
        input: [
          {
            user_id: 7,
            can_transfer_money: 1,
            can_transfer_digital_man: 0,
            can_transfer_digital_voice: 0,
          },
        ],
      },
    ]);
    world.dispose();
  }, 120_000);

  test('reset password: a weak password is refused in the form and nothing is sent; reopened, the form is fresh', async () => {
    const world = await setup();
    await world.rowAction('customers.resetPassword');
    let w = within(world.dialog()!);
    const input = () =>
      w.getByLabelText(/^New password/, { selector: 'input' }) as HTMLInputElement;
    await world.user.type(input(), 'short');
    await world.user.click(w.getByRole('button', { name: text('customers.resetPassword') }));
    w.getByText(text('validation.passwordRule'));
    expect(world.endpoints.calls).toEqual([]);
    await world.user.click(w.getByRole('button', { name: text('form.cancel') }));
    await world.rowAction('customers.resetPassword');
    w = within(world.dialog()!);
    expect(input().value).toBe('');
    expect(w.queryByText(text('validation.passwordRule'))).toBeNull();
    world.dispose();
  }, 120_000);

  test("Transfer in a row's menu opens the money transfer to that customer", async () => {
    const world = await setup();
    await world.rowAction('customers.transfer');
    const w = within(world.dialog()!);
    w.getByRole('heading', { name: text('property.transfer') });
    w.getByText(ROW_NAME, { exact: false });
    world.dispose();
  }, 120_000);
});
