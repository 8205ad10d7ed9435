/**
 * The money dialogs' path tests through the real property page: a partner signed
 * in, /account/property rendered over the money area with fake endpoints (`provideArea`), and the
 * oracle of the money-call machine (src/machines/money-call.ts) written out by hand: which button
 * leads where, what the dialog shows in each step, which calls each step makes (the body and
 * whether its idempotency key is new or the one sent just before) and which reloads follow.
 * transfer-view.test.tsx walks every row of the table through the transfer dialog (money-call's
 * generic behaviour, tested once); exchange-view.test.tsx walks the exchange dialog's own steps.
 */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { createActor, fromPromise, type EventObject } from 'xstate';
import type { Account } from '../../src/api/contract/dashboard';
import type { SystemInfo } from '../../src/api/contract/system';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { moneyArea, type MoneyEndpoints } from '../../src/app/actors/money';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import { brandingMachine } from '../../src/machines/branding';
import type { MoneyCallSnapshot } from '../../src/machines/money-call';
import PropertyPage from '../../src/views/account/property-page';
import { replyError, userFixture } from './fixtures';
import { fakeEndpoints, person, settle } from './ui-paths';
import { appActors, BRANDING, isOpen, renderAt } from './view-harness';

export const text = (id: MessageId, values: Record<string, string> = {}): string =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{${k}}`, v), String(enUS[id]));

// ---------------------------------------------------------------------------------------------
// The oracle of a money dialog, from the rules of docs/domain.md §3 / money-call.ts's comment: a
// confirmed draft is sent under a new key; after a lost reply only Retry (the same key) or
// Close; after a refusal only Back to the form (it keeps what was typed) or Close; while a call
// is under way nothing but waiting; "Another one" starts an empty form. `drafts` name the forms
// a person fills in.

/**
 * The generic table: `'<state> <event>'` → state, for the given drafts. `second`: a second draft,
 * walked only from the form to its result (a different draft after Back, the body sent, the
 * result shown): every other row of it is the first draft's again.
 */
export function moneyCallTable(first: string, second: string): Record<string, string> {
  const rows = generic([first, second]);
  const again = new Set([
    `form REVIEW ${second}`,
    `form, ${first} REVIEW ${second}`,
    `confirm ${second} SUBMIT`,
    `sending ${second} done`,
    `done ${second} CLOSE`,
  ]);
  return Object.fromEntries(
    Object.entries(rows).filter(
      ([row]) => again.has(row) || !(row.includes(` ${second} `) || row.endsWith(` ${second}`)),
    ),
  );
}

function generic(drafts: readonly string[]): Record<string, string> {
  const rows: Record<string, string> = {
    'closed OPEN': 'form',
    'form CLOSE': 'closed',
  };
  for (const d of drafts) {
    for (const from of ['form', ...drafts.map((o) => `form, ${o}`)]) {
      rows[`${from} REVIEW ${d}`] = `confirm ${d}`;
    }
    Object.assign(rows, {
      [`form, ${d} CLOSE`]: 'closed',
      [`confirm ${d} BACK`]: `form, ${d}`,
      [`confirm ${d} SUBMIT`]: `sending ${d}`,
      [`confirm ${d} CLOSE`]: 'closed',
      [`sending ${d} done`]: `done ${d}`,
      [`sending ${d} refused`]: `refused ${d}`,
      [`sending ${d} no reply`]: `no reply ${d}`,
      [`no reply ${d} RETRY`]: `sending ${d}`,
      [`no reply ${d} CLOSE`]: 'closed',
      [`refused ${d} BACK`]: `form, ${d}`,
      [`refused ${d} CLOSE`]: 'closed',
      [`done ${d} AGAIN`]: 'form',
      [`done ${d} CLOSE`]: 'closed',
    });
  }
  return rows;
}

/**
 * The calls each row makes: a submission (what `sent` names: its body, a new key or the same
 * key as the call before); after an ending that may have moved something (done, no reply) the
 * page reloads the balances, the ledger and the transfer records. A refusal moved nothing.
 */
export function moneyCallEffects(
  drafts: readonly [string, string],
  sent: (draft: string, key: 'new key' | 'same key') => string,
): Record<string, string[]> {
  const reloads = ['reload balances', 'reload ledger', 'reload transfer records'];
  const effects: Record<string, string[]> = {};
  for (const d of drafts) {
    effects[`confirm ${d} SUBMIT`] = [sent(d, 'new key')];
    effects[`no reply ${d} RETRY`] = [sent(d, 'same key')];
    effects[`sending ${d} done`] = reloads;
    effects[`sending ${d} no reply`] = reloads;
  }
  return effects;
}

/** The states of a table (its targets and sources). */
export function statesOf(table: Record<string, string>, initial: string): string[] {
  const states = new Set([initial, ...Object.values(table)]);
  for (const row of Object.keys(table)) {
    const source = Object.values(table).find((s) => row.startsWith(`${s} `));
    if (source) states.add(source);
  }
  return [...states];
}

/** How the tables name an event of the money-call machine. */
export function moneyLabel<D>(nameOf: (draft: D) => string) {
  return (event: EventObject): string => {
    if (event.type === 'REVIEW')
      return `REVIEW ${nameOf((event as unknown as { draft: D }).draft)}`;
    if (event.type === 'xstate.done.actor.submit') return 'done';
    if (event.type === 'xstate.error.actor.submit') {
      return (event as { error?: { kind?: string } }).error?.kind === 'reply'
        ? 'refused'
        : 'no reply';
    }
    return event.type;
  };
}

/** The machine's state under the table's names (a check only, never the expectation). */
export function moneyState<D>(
  s: { value: unknown; context: { draft: D | null; uncertain: boolean } },
  nameOf: (draft: D) => string,
) {
  const d = s.context.draft === null ? null : nameOf(s.context.draft);
  switch (s.value) {
    case 'closed':
      return 'closed';
    case 'editing':
      return d === null ? 'form' : `form, ${d}`;
    case 'confirming':
      return `confirm ${d}`;
    case 'submitting':
      return `sending ${d}`;
    case 'failed':
      return `${s.context.uncertain ? 'no reply' : 'refused'} ${d}`;
    default:
      return `done ${d}`;
  }
}

export const REFUSED = 'Insufficient balance';

/**
 * The events a path may take in a state: the person's (only where the machine handles them:
 * an ignored event would look like another way in) and the call's three endings; only those the
 * table has a row for (`table`, the state named by `nameOf`).
 */
export function moneyEvents<D>(
  drafts: readonly D[],
  result: unknown,
  table: Record<string, string>,
  nameOf: (draft: D) => string,
) {
  const label = moneyLabel(nameOf);
  const all = (snapshot: MoneyCallSnapshot<D, unknown>): EventObject[] => {
    const person = [
      { type: 'OPEN' },
      ...drafts.map((draft) => ({ type: 'REVIEW', draft })),
      { type: 'BACK' },
      { type: 'SUBMIT' },
      { type: 'RETRY' },
      { type: 'AGAIN' },
      { type: 'CLOSE' },
    ].filter((e) => snapshot.can(e as never));
    if (!snapshot.matches('submitting')) return person;
    const endings: (EventObject & Record<string, unknown>)[] = [
      { type: 'xstate.done.actor.submit', output: result },
      { type: 'xstate.error.actor.submit', error: replyError(REFUSED) },
      { type: 'xstate.error.actor.submit', error: replyError('http.networkError', 'transport') },
    ];
    return [...person, ...endings];
  };
  return (snapshot: MoneyCallSnapshot<D, unknown>) =>
    all(snapshot).filter((e) => `${moneyState(snapshot, nameOf)} ${label(e)}` in table);
}

/**
 * One state per way the dialog differs for a person: the step, which draft, a lost reply; and
 * an empty form after a call apart from a new one, so that a path takes "Another one".
 */
export function moneySerialize<D>(nameOf: (draft: D) => string) {
  return (s: MoneyCallSnapshot<D, unknown>) =>
    JSON.stringify([
      s.value,
      s.value === 'closed' || s.context.draft === null ? null : nameOf(s.context.draft),
      s.context.uncertain,
      s.value === 'editing' && s.context.attempts > 0,
    ]);
}

// ---------------------------------------------------------------------------------------------
// The world: a partner on /account/property

/** The signed-in partner, named on the transfer confirmation as the records name users. */
export const ME = { name: 'Nebula Media', username: 'partner' };
export const ME_LABEL = 'Nebula Media (partner)';
export const MONEY = 'Coins';

const PARTNER = userFixture({
  accountId: 2,
  user_type: 1,
  username: ME.username,
  name: ME.name,
  can_transfer_money: 1,
  can_transfer_digital_man: 1,
  can_transfer_digital_voice: 0,
  digital_man_money_exchange_num: '1',
  digital_voice_money_exchange_num: '10',
});

/** What the partner holds: 10.50 money, nothing else. */
export const BALANCES: Account = {
  money: '10.50',
  digital_man_seconds: 0,
  voice_clone_count: 0,
  image_clone_count: 0,
};

export const USERS = {
  list: [
    {
      id: 5,
      username: 'merchant',
      name: 'Morning shop',
      nickname: '',
      mobile: '',
      user_type: 2,
      service_id: 2,
      status: 1,
    },
  ],
  total: 1,
};

/** The money area's endpoints for a plain view test: the given ones; every other never answers. */
export function fakeMoneyEndpoints(given: Partial<MoneyEndpoints> = {}): MoneyEndpoints {
  const never = () => new Promise<never>(() => {});
  let keys = 0;
  return {
    getAccount: never,
    getMoneyLog: never,
    getTransferRecords: never,
    transfer: never,
    exchange: never,
    getPlatformUsers: never,
    newIdempotencyKey: () => `key-${(keys += 1)}`,
    ...given,
  };
}

const CALL_NAMES: Record<string, string> = {
  getAccount: 'reload balances',
  getMoneyLog: 'reload ledger',
  getTransferRecords: 'reload transfer records',
};

/**
 * Renders the property page for the signed-in partner; the money area's endpoints are fakes
 * settled by the steps (`reply` answers a submission from its body). The first loads are
 * answered before the path starts.
 */
export async function moneyWorld(options: {
  submit: 'transfer' | 'exchange';
  reply: (body: Record<string, unknown>) => unknown;
}) {
  const endpoints = fakeEndpoints();
  let keys = 0;
  const money: MoneyEndpoints = {
    getAccount: endpoints.endpoint('getAccount'),
    getMoneyLog: endpoints.endpoint('getMoneyLog'),
    getTransferRecords: endpoints.endpoint('getTransferRecords'),
    transfer: endpoints.endpoint('transfer'),
    exchange: endpoints.endpoint('exchange'),
    getPlatformUsers: endpoints.endpoint('getPlatformUsers'),
    newIdempotencyKey: () => `key-${(keys += 1)}`,
  };
  const auth = createActor(
    authMachine.provide({ actors: { getUserInfo: fromPromise(async () => PARTNER) } }),
    { input: { tokenKind: 'local' } },
  ).start();
  const branding = createActor(
    brandingMachine.provide({
      actors: {
        fetchSystemInfo: fromPromise(
          async () =>
            ({
              ...BRANDING,
              money_name: MONEY,
              money_recharge_exchange_config: '2,3',
            }) as SystemInfo,
        ),
      },
    }),
  ).start();
  const base = appActors({ auth });
  const actors = {
    ...base,
    branding,
    dispose: () => {
      base.dispose();
      branding.stop();
    },
  };
  provideArea(actors, moneyArea, money);
  await settle();
  expect(auth.getSnapshot().hasTag('signedIn')).toBe(true);
  renderAt(actors, <PropertyPage />, '/account/property');
  await settle();
  await answerLoads();

  /** Answers the page's loads (the first ones, or the reloads after a call). */
  async function answerLoads() {
    while (endpoints.waiting('getAccount').length)
      await endpoints.settle('getAccount', 'done', BALANCES);
    for (const list of ['getMoneyLog', 'getTransferRecords']) {
      while (endpoints.waiting(list).length)
        await endpoints.settle(list, 'done', { list: [], total: 0 });
    }
  }

  const user = person();
  let seen = endpoints.calls.length;
  const sentKeys: string[] = [];
  /** The calls since the last look, as the effects table names them. */
  const take = () => {
    const fresh = endpoints.calls.slice(seen);
    seen = endpoints.calls.length;
    return fresh.flatMap((call) => {
      if (call.name === options.submit) {
        const [body, key] = call.input as [unknown, string];
        const note = !sentKeys.includes(key)
          ? 'new key'
          : key === sentKeys.at(-1)
            ? 'same key'
            : `an older key`;
        sentKeys.push(key);
        return [`${options.submit} ${JSON.stringify(body)} ${note}`];
      }
      return CALL_NAMES[call.name] ? [CALL_NAMES[call.name]] : [];
    });
  };

  /** The one open dialog, titled as given. */
  const dialog = (title: MessageId) => {
    const open = screen.queryAllByRole('dialog').filter(isOpen);
    expect(open, 'one open dialog').toHaveLength(1);
    within(open[0]).getByRole('heading', { name: text(title) });
    return within(open[0]);
  };

  /** Settles the submission and answers the reloads that follow it. */
  const settleSubmit = async (event: EventObject) => {
    const body = endpoints.calls.filter((c) => c.name === options.submit).at(-1)?.input as [
      Record<string, unknown>,
    ];
    if (event.type === 'xstate.done.actor.submit') {
      await endpoints.settle(options.submit, 'done', options.reply(body[0]));
    } else {
      await endpoints.settle(
        options.submit,
        'error',
        (event as unknown as { error: unknown }).error,
      );
    }
    await answerLoads();
  };

  /**
   * Back to the start between two paths on the one rendered page (rendering it is most of a
   * path's time): a call still under way refused, the dialog closed (sent to its actor: test
   * plumbing, no person's step), the reloads answered, the calls so far forgotten.
   */
  const reset = async () => {
    if (endpoints.waiting(options.submit).length) {
      await endpoints.settle(options.submit, 'error', replyError(REFUSED));
    }
    areasOf(actors).get(moneyArea)[options.submit].send({ type: 'CLOSE' });
    await settle();
    await answerLoads();
    take();
  };

  return { endpoints, actors, user, take, dialog, settleSubmit, reset };
}

export type MoneyWorld = Awaited<ReturnType<typeof moneyWorld>>;

// ---------------------------------------------------------------------------------------------
// What a person sees

export interface DialogTexts {
  title: MessageId;
  confirm: MessageId;
  confirmText: MessageId;
  done: MessageId;
}

/** The step a table state stands for. */
const stepOf = (state: string) => state.replace(/ .*$/, '').replace(/,$/, '');

/**
 * The buttons of each step, in order, and the dialog's own × (named Close) last; the confirm
 * button busy and everything else disabled while the call is under way; the failure said.
 */
export function assertStep(world: MoneyWorld, texts: DialogTexts, state: string) {
  if (state === 'closed') {
    expect(screen.queryAllByRole('dialog').filter(isOpen), 'no open dialog').toHaveLength(0);
    return null;
  }
  const dialog = world.dialog(texts.title);
  const step = state.startsWith('no reply') ? 'no reply' : stepOf(state);
  const BUTTONS: Record<string, string[]> = {
    form: [text('form.cancel'), text('property.next')],
    confirm: [text('property.back'), text(texts.confirm)],
    sending: [text('property.back'), text(texts.confirm)],
    refused: [text('form.close'), text('property.back')],
    'no reply': [text('form.close'), text('property.retry')],
    done: [text('property.again'), text('form.close')],
  };
  const buttons = dialog.getAllByRole('button');
  expect(buttons.map((b) => b.textContent || b.getAttribute('aria-label'))).toEqual([
    ...BUTTONS[step],
    text('form.close'),
  ]);
  const sending = step === 'sending';
  for (const b of buttons) {
    const busy = b.textContent === text(texts.confirm) && sending;
    expect(b.hasAttribute('disabled') || b.getAttribute('aria-busy') === 'true').toBe(sending);
    if (b.textContent === text(texts.confirm))
      expect(b.getAttribute('aria-busy')).toBe(String(busy));
  }
  const confirming = ['confirm', 'sending', 'refused', 'no reply'].includes(step);
  expect(dialog.queryByText(text(texts.confirmText)) !== null, 'the confirmation').toBe(confirming);
  const alert = dialog.queryByRole('alert');
  if (step === 'refused') {
    expect(alert?.textContent).toBe(REFUSED);
  } else if (step === 'no reply') {
    // A lost reply: the client's message, and that retrying is safe.
    expect(alert?.textContent).toBe(text('http.networkError') + text('property.uncertain'));
  } else {
    expect(alert).toBeNull();
  }
  expect(dialog.queryByRole('status')?.textContent ?? null).toBe(
    step === 'done' ? text(texts.done) : null,
  );
  return dialog;
}

/** The label → value pairs of a summary group. */
export function summary(dialog: ReturnType<typeof within>, name: string): Record<string, string> {
  const group = within(dialog.getByRole('group', { name }));
  const terms = group.getAllByRole('term').map((t) => t.textContent ?? '');
  const values = group.getAllByRole('definition').map((d) => d.textContent ?? '');
  return Object.fromEntries(terms.map((t, i) => [t, values[i]]));
}

/** The person's clicks for the steps every money dialog shares (StepButtons and the ×). */
export async function clickStep(
  world: MoneyWorld,
  texts: DialogTexts,
  state: string,
  type: string,
) {
  const dialog = world.dialog(texts.title);
  const click = (name: string) => world.user.click(dialog.getAllByRole('button', { name })[0]);
  switch (type) {
    case 'BACK':
      return click(text('property.back'));
    case 'SUBMIT':
      return click(text(texts.confirm));
    case 'RETRY':
      return click(text('property.retry'));
    case 'AGAIN':
      return click(text('property.again'));
    case 'CLOSE': {
      // Cancel on the form; the × on the confirmation (it has no other way out); Close after.
      const step = stepOf(state);
      if (step === 'form') return click(text('form.cancel'));
      const closes = dialog.getAllByRole('button', { name: text('form.close') });
      return world.user.click(step === 'confirm' ? closes.at(-1)! : closes[0]);
    }
    default:
      throw new Error(`not a step button: ${type}`);
  }
}
