/**
 * The domain form machine (src/machines/domain-form.ts) through the real /domain/domainList page
 * over the real domains area, its endpoints fakes: the machine's shortest paths only propose
 * event sequences; each step is a click or typing in the dialog, or the fake `addDomain` call
 * settling, and the state after it comes from the hand-written table below, asserted on screen
 * (the errors shown, the live preview, the buttons). The list reloads once per saved domain.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import enUS from '../../src/i18n/en-US';
import { domainFormMachine } from '../../src/machines/domain-form';
import { domainsWorld, ROW, text } from './domains-world';
import { replyError } from './fixtures';
import { settle, uiPaths, viewPathHooks } from './ui-paths';

const REFUSED = 'The hostname video.example.com is already in use';
const HOST = 'video.example.com';
const NAME = 'Acme Video';

// ---------------------------------------------------------------------------------------------
// The oracle, written from the page's rules: a new domain needs a hostname and a name; what the
// contract refuses is said at the field and nothing is sent; once refused, every change checks
// again; the server's refusal shows its sentence with Retry and Back (the draft kept).

const TRANSITIONS: Record<string, string> = {
  'closed OPEN': 'blank',
  'blank CHANGE hostname': 'hostOnly',
  'blank SUBMIT': 'refused',
  'blank CLOSE': 'closed',
  'hostOnly CHANGE name': 'ready',
  'hostOnly SUBMIT': 'refusedName',
  'hostOnly CLOSE': 'closed',
  'refused CHANGE hostname': 'refusedName',
  'refused SUBMIT': 'refused',
  'refused CLOSE': 'closed',
  'refusedName CHANGE name': 'ready',
  'refusedName SUBMIT': 'refusedName',
  'refusedName CLOSE': 'closed',
  'ready SUBMIT': 'submitting',
  'ready CLOSE': 'closed',
  'submitting done submit': 'done',
  'submitting error submit': 'failed',
  'failed RETRY': 'submitting',
  'failed BACK': 'ready',
  'failed CLOSE': 'closed',
  'done OPEN': 'blank',
};

/** The list is read again once per saved domain (and once when the page opens). */
const EFFECTS: Record<string, string[]> = { 'submitting done submit': ['reload'] };

type PathEvent = { type: string; field?: string };

const label = (event: PathEvent) => {
  if (event.type === 'CHANGE') return `CHANGE ${event.field}`;
  return event.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');
};

// ---------------------------------------------------------------------------------------------

function setup() {
  const world = domainsWorld();
  const input = (name: string) => {
    const d = world.dialog()!;
    return d.getByRole('textbox', { name: new RegExp(`^${name}\\s*\\*?$`) }) as HTMLInputElement;
  };
  const type = (name: string, value: string) =>
    fireEvent.change(input(name), { target: { value } });

  const exec = async (event: PathEvent) => {
    const d = world.dialog();
    switch (event.type) {
      case 'OPEN':
        return world.user.click(world.pageButton(text('domains.add')));
      case 'CHANGE':
        if (event.field === 'hostname') type(text('domains.hostname'), HOST);
        else {
          type(text('domains.name'), NAME);
          type(text('domains.moneyName'), 'Acme coins');
        }
        return;
      case 'SUBMIT':
        return world.user.click(d!.getByRole('button', { name: text('domains.create') }));
      case 'CLOSE':
        return world.user.click(d!.getByRole('button', { name: text('form.close') }));
      case 'RETRY':
        return world.user.click(d!.getByRole('button', { name: text('customers.retry') }));
      case 'BACK':
        return world.user.click(d!.getByRole('button', { name: text('customers.back') }));
      case 'xstate.done.actor.submit':
        return world.endpoints.settle('addDomain', 'done', { ...ROW, id: 4, hostname: HOST });
      case 'xstate.error.actor.submit':
        return world.endpoints.settle('addDomain', 'error', replyError(REFUSED));
      default:
        throw new Error(`a person cannot cause ${event.type}`);
    }
  };

  const hostError = enUS['validation.hostname'];
  const nameError = enUS['validation.domainName'];
  const sees = (state: string) => () => {
    const d = world.dialog();
    if (state === 'closed' || state === 'done') {
      expect(d).toBeNull();
      return;
    }
    expect(d).not.toBeNull();
    d!.getByRole('heading', { name: text('domains.addTitle') });
    const shown = (msg: string) => d!.queryByText(msg) !== null;
    expect(shown(hostError), 'hostname error').toBe(state === 'refused');
    expect(shown(nameError), 'name error').toBe(state === 'refused' || state === 'refusedName');
    const preview = within(d!.getByTestId('brand-preview'));
    const named = state === 'ready' || state === 'submitting' || state === 'failed';
    // The preview draws the draft as typed: the brand name, else the hostname.
    const shownName = named ? NAME : state === 'blank' || state === 'refused' ? '—' : HOST;
    expect(preview.getByTestId('preview-navbar-name').textContent).toBe(shownName);
    expect(preview.getByTestId('preview-login-name').textContent).toBe(shownName);
    expect(preview.getByTestId('preview-money-name').textContent).toBe(
      text('domains.previewBalance', { moneyName: named ? 'Acme coins' : '—' }),
    );
    const busy = state === 'submitting';
    expect(world.endpoints.waiting('addDomain')).toEqual(busy ? ['addDomain'] : []);
    if (state === 'failed') {
      expect(d!.getByRole('alert').textContent).toContain(REFUSED);
      d!.getByRole('button', { name: text('customers.retry') });
    } else {
      const add = d!.getByRole('button', { name: text('domains.create') });
      expect(add.getAttribute('aria-busy')).toBe(String(busy));
    }
    if (named) expect(input(text('domains.hostname')).value).toBe(HOST);
  };

  const actual = () => {
    const s = world.area().form.getSnapshot();
    if (s.matches('editing')) {
      const { values, checked } = s.context;
      if (values.name) return 'ready';
      if (values.hostname) return checked ? 'refusedName' : 'hostOnly';
      return checked ? 'refused' : 'blank';
    }
    return String(s.value);
  };
  return { world, exec, sees, actual };
}

viewPathHooks();

describe('the domain form (a new domain)', () => {
  uiPaths({
    oracle: { initial: 'closed', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(domainFormMachine, {
      events: (s) => {
        const { values } = s.context;
        return (
          [
            { type: 'OPEN', target: null },
            ...(values.hostname ? [] : [{ type: 'CHANGE', field: 'hostname', value: HOST }]),
            ...(values.hostname && !values.name
              ? [{ type: 'CHANGE', field: 'name', value: NAME }]
              : []),
            { type: 'SUBMIT' },
            { type: 'RETRY' },
            { type: 'BACK' },
            { type: 'CLOSE' },
            { type: 'xstate.done.actor.submit', output: { ...ROW, id: 4 } },
            { type: 'xstate.error.actor.submit', error: replyError(REFUSED) },
          ] as never[]
        ).filter((e) => s.can(e));
      },
      serializeState: (s) =>
        JSON.stringify([
          s.value,
          Boolean(s.context.values.hostname),
          Boolean(s.context.values.name),
          s.context.checked,
        ]),
    }),
    // Retry and Back: shortest paths reach their targets by other ways; this one takes both.
    more: [
      {
        steps: [
          'xstate.init',
          'OPEN',
          'CHANGE hostname',
          'CHANGE name',
          'SUBMIT',
          'xstate.error.actor.submit',
          'RETRY',
          'xstate.error.actor.submit',
          'BACK',
          'SUBMIT',
          'xstate.done.actor.submit',
        ].map((name) => {
          const [type, field] = name.split(' ');
          return { event: (field ? { type, field } : { type }) as never };
        }),
      },
    ],
    run: async (_, walk) => {
      const { world, exec, sees, actual } = setup();
      await settle();
      world.effects.take();
      await walk({
        exec,
        sees: Object.fromEntries(
          ['closed', ...Object.values(TRANSITIONS)].map((s) => [s, sees(s)]),
        ),
        actual,
        effects: { take: world.effects.take, expected: EFFECTS },
      });
      world.dispose();
    },
    timeout: 120_000,
  });
});

test('an edit starts from the row, previews each change and sends only what changed', async () => {
  const { world } = setup();
  await settle();
  await world.user.click(
    screen.getByRole('button', { name: text('domains.editOne', { hostname: ROW.hostname }) }),
  );
  await settle();
  const d = world.dialog()!;
  d.getByRole('heading', { name: text('domains.editTitle', { hostname: ROW.hostname }) });
  const name = d.getByRole('textbox', { name: /^Brand name/ }) as HTMLInputElement;
  expect(name.value).toBe('Old brand');
  // Nothing changed: said in the form, nothing sent.
  await world.user.click(d.getByRole('button', { name: text('form.save') }));
  await settle();
  expect(d.getByText(enUS['validation.nothingToChange'])).toBeTruthy();
  expect(world.endpoints.calls).toEqual([]);

  fireEvent.change(name, { target: { value: 'New brand' } });
  fireEvent.change(d.getByRole('textbox', { name: /^Theme colour/ }), {
    target: { value: '#AA3300' },
  });
  await settle();
  const preview = within(d.getByTestId('brand-preview'));
  expect(preview.getByTestId('preview-navbar-name').textContent).toBe('New brand');
  expect(preview.getByTestId('preview-navbar').style.borderTopColor).toBe('#aa3300');
  expect(d.queryByText(enUS['validation.nothingToChange'])).toBeNull();

  await world.user.click(d.getByRole('button', { name: text('form.save') }));
  await settle();
  expect(world.endpoints.calls).toEqual([
    { name: 'editDomain', input: [{ id: 3, name: 'New brand', theme_color: '#AA3300' }] },
  ]);
  world.dispose();
}, 60_000);
