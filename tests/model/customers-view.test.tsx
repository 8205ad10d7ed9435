/**
 * View path tests of the customer dialogs: the shortest paths of the customer dialog machine run
 * on a real actor (the call is a fake settled by the steps) while the real dialog is rendered —
 * the create / edit form, reset password and the delete confirmation. Each step asserts what a
 * person sees (customers-model.ts's oracle): the dialog and its title, the busy submit button,
 * the server's refusal with Retry and Back to the form.
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { removeAllNotices } from '../../src/components/toaster';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { CustomerFormDialog } from '../../src/views/promotion/customer-form-dialog';
import {
  DeleteDialog,
  PermissionsDialog,
  ResetPasswordDialog,
} from '../../src/views/promotion/customer-row-dialogs';
import { describePath, fakeCalls, runPath } from './harness';
import {
  EVENTS,
  ROW,
  dialogMachine,
  describeEvent,
  sees,
  serialize,
  type Snap,
} from './customers-model';
import { appActors, flush, isOpen, renderAt } from './view-harness';

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
});

// The form's agent picker lists the partner's agents through the API.
vi.mock('../../src/api/money', () => ({
  getPlatformUsers: async () => ({
    list: [
      {
        id: 4,
        username: 'agent',
        name: 'Sales Wang',
        nickname: '',
        mobile: '',
        user_type: 3,
        service_id: 2,
        status: 1,
      },
    ],
    total: 1,
  }),
}));

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

type Actor = ReturnType<typeof createActor<typeof dialogMachine>>;

interface DialogUnderTest {
  name: string;
  render: (actor: Actor) => ReactElement;
  /** The title for the row (or for a new customer) and the submit button's name. */
  title: (snapshot: Snap) => string;
  submit: (snapshot: Snap) => string;
  /** Row dialogs are always about a row: they are never opened for "new". */
  rowOnly?: boolean;
}

const rowName = (s: Snap) =>
  s.context.target ? `${s.context.target.name} (${s.context.target.username})` : '';

const DIALOGS: DialogUnderTest[] = [
  {
    name: 'create / edit form',
    render: (actor) => (
      <CustomerFormDialog
        actor={actor as never}
        settings={{
          isAdmin: false,
          userType: 2,
          salerShow: true,
          trialShow: true,
          defaultLimit: '-1',
          moneyName: 'Coins',
        }}
      />
    ),
    title: (s) =>
      s.context.target
        ? fill(enUS['customers.editTitle'], { name: rowName(s) })
        : enUS['customers.addMerchant'],
    submit: (s) => (s.context.target ? enUS['form.save'] : enUS['customers.create']),
  },
  {
    name: 'reset password',
    render: (actor) => <ResetPasswordDialog actor={actor as never} />,
    title: (s) => fill(enUS['customers.resetTitle'], { name: rowName(s) }),
    submit: () => enUS['customers.resetPassword'],
    rowOnly: true,
  },
  {
    name: 'delete confirmation',
    render: (actor) => <DeleteDialog actor={actor as never} />,
    title: (s) => fill(enUS['customers.deleteTitle'], { name: rowName(s) }),
    submit: () => enUS['customers.delete'],
    rowOnly: true,
  },
];

const openDialogs = () => screen.queryAllByRole('dialog').filter(isOpen);

async function assertSees(d: DialogUnderTest, snapshot: Snap) {
  await flush();
  const want = sees(snapshot);
  const dialogs = openDialogs();
  expect(dialogs.length).toBe(want.open ? 1 : 0);
  if (!want.open) return;
  const dialog = within(dialogs[0]);
  expect(dialog.getByRole('heading', { name: d.title(snapshot) })).toBeTruthy();
  if (want.refusal) {
    expect(dialog.getByRole('alert').textContent).toContain(want.refusal);
    expect(dialog.getByRole('button', { name: enUS['customers.retry'] })).toBeTruthy();
    expect(dialog.getByRole('button', { name: enUS['customers.back'] })).toBeTruthy();
    expect(dialog.queryByRole('button', { name: d.submit(snapshot) })).toBeNull();
    return;
  }
  expect(dialog.queryByRole('alert')).toBeNull();
  const submit = dialog.getByRole('button', { name: d.submit(snapshot) });
  expect(submit.getAttribute('aria-busy')).toBe(String(want.busy));
  const cancel = dialog.getByRole('button', { name: enUS['form.cancel'] });
  expect((cancel as HTMLButtonElement).disabled).toBe(want.busy);
}

const pathsFor = (d: DialogUnderTest) =>
  getShortestPaths(dialogMachine, {
    events: d.rowOnly ? EVENTS.filter((e) => e.type !== 'OPEN' || e.target !== null) : EVENTS,
    serializeState: (state) => serialize(state as Snap),
  });

describe.each(DIALOGS)('$name', (d) => {
  const paths = pathsFor(d);
  test.each(paths.map((path) => [describePath(path, describeEvent as never), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const actor = createActor(dialogMachine.provide({ actors: { submit: calls.logic() } }));
      const actors = appActors({});
      renderAt(actors, d.render(actor));
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: Snap) => serialize(s),
        check: (snapshot: Snap) => assertSees(d, snapshot),
      });
      actor.stop();
      actors.dispose();
    },
  );
});

test('the form checks like the server before it submits anything', async () => {
  const calls = fakeCalls();
  const actor = createActor(dialogMachine.provide({ actors: { submit: calls.logic() } }));
  const actors = appActors({});
  renderAt(actors, DIALOGS[0].render(actor));
  actor.start();
  act(() => actor.send({ type: 'OPEN', target: null }));
  await flush();
  const dialog = within(openDialogs()[0]);
  // The settings turn on the agent picker and the trial credit.
  expect(dialog.getByRole('combobox', { name: enUS['customers.agent'] })).toBeTruthy();
  expect(
    dialog.getByRole('textbox', {
      name: fill(enUS['customers.trialMoney'], { moneyName: 'Coins' }),
    }),
  ).toBeTruthy();
  fireEvent.click(dialog.getByRole('button', { name: enUS['customers.create'] }));
  await flush();
  expect(dialog.getByText(enUS['validation.usernameRequired'])).toBeTruthy();
  expect(String(actor.getSnapshot().value)).toBe('editing');
  expect(calls.started).toEqual([]);
  actor.stop();
  actors.dispose();
});

test('a partner may switch off any transfer flag but switch on only the ones it holds', async () => {
  const calls = fakeCalls();
  const actor = createActor(dialogMachine.provide({ actors: { submit: calls.logic() } }));
  const actors = appActors({});
  renderAt(
    actors,
    <PermissionsDialog
      actor={actor as never}
      held={{ can_transfer_money: 1, can_transfer_digital_man: 0, can_transfer_digital_voice: 0 }}
      moneyName="Coins"
    />,
  );
  actor.start();
  // The row already may transfer voice clones (granted by the admin); not digital-human time.
  act(() => actor.send({ type: 'OPEN', target: { ...ROW, can_transfer_digital_voice: 1 } }));
  await flush();
  const dialog = within(openDialogs()[0]);
  const flag = (id: 'customers.canMoney' | 'customers.canDigitalMan' | 'customers.canVoice') =>
    dialog.getByRole('checkbox', {
      name: fill(enUS[id], { moneyName: 'Coins' }),
    }) as HTMLInputElement;
  expect([flag('customers.canMoney').disabled, flag('customers.canMoney').checked]).toEqual([
    false,
    false,
  ]);
  expect([
    flag('customers.canDigitalMan').disabled,
    flag('customers.canDigitalMan').checked,
  ]).toEqual([true, false]);
  expect([flag('customers.canVoice').disabled, flag('customers.canVoice').checked]).toEqual([
    false,
    true,
  ]);
  expect(dialog.getAllByText(enUS['customers.notHeld'])).toHaveLength(2);
  // Switching the held flag on and the unheld one off submits exactly that.
  fireEvent.click(flag('customers.canMoney'));
  fireEvent.click(flag('customers.canVoice'));
  await flush();
  fireEvent.click(dialog.getByRole('button', { name: enUS['form.save'] }));
  await flush();
  expect(calls.started.at(-1)?.input).toMatchObject({
    payload: { can_transfer_money: 1, can_transfer_digital_man: 0, can_transfer_digital_voice: 0 },
  });
  actor.stop();
  actors.dispose();
});
